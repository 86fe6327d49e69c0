import { describe, expect, it } from 'vitest';
import { errorCause, errorCode, errorMessage } from './errors.ts';

describe('what a caught value says', () => {
  it("an Error's message, anything else as text", () => {
    expect(errorMessage(new Error('disk full'))).toBe('disk full');
    expect(errorMessage('plain text')).toBe('plain text');
    expect(errorMessage(undefined)).toBe('undefined');
  });

  it('a code only when it is text, a cause only when there is one', () => {
    expect(errorCode(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe('ECONNREFUSED');
    expect(errorCode(Object.assign(new Error('x'), { code: 42 }))).toBeUndefined();
    expect(errorCode(null)).toBeUndefined();
    const inner = new Error('inner');
    expect(errorCause(new Error('outer', { cause: inner }))).toBe(inner);
    expect(errorCause(new Error('alone'))).toBeUndefined();
    expect(errorCause('text')).toBeUndefined();
  });
});
