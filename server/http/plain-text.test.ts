import { describe, expect, it } from 'vitest';
import { plainText, unsafeCharacterIn } from '../../schemas/common.ts';
import { unsafeTextProblem } from './plain-text.ts';

describe('text a request may carry', () => {
  it('accepts any script, emoji, tabs, line breaks and the marks Arabic text needs', () => {
    for (const ok of ['Maria López', 'Ωμέγα 漢字 😀👍🏽', 'मधुमेह', 'مرحبا\u200f بك', 'a\u061cb', 'line one\nline two\r\n\tindented', 'e\u0301'])
      expect(unsafeTextProblem({ name: ok, notes: [ok] }, 'body'), ok).toBeUndefined();
  });

  it.each([
    ['right-to-left override', 'Maria\u202eziL', 'U+202E'],
    ['left-to-right embedding', '\u202aname', 'U+202A'],
    ['first-strong isolate', 'x\u2068y', 'U+2068'],
    ['pop directional isolate', 'x\u2069', 'U+2069'],
    ['escape', 'x\u001b[31mred', 'U+001B'],
    ['NUL', 'a\u0000b', 'U+0000'],
    ['delete', 'a\u007f', 'U+007F'],
    ['C1 control', 'a\u0085', 'U+0085'],
    ['vertical tab', 'a\u000bb', 'U+000B'],
  ])('refuses a %s and names the field and the character', (_what, text, code) => {
    expect(unsafeCharacterIn(text)).toBe(code);
    expect(unsafeTextProblem({ doctor: text }, 'body')).toBe(`doctor must not contain control characters or text-direction overrides (found ${code})`);
    expect(unsafeTextProblem({ writes: [{ body: { notes: text } }] }, 'body')).toMatch(/^writes\.0\.body\.notes must not/);
    expect(unsafeTextProblem(text, 'body')).toMatch(/^body must not/);
    expect(plainText(text)).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('refuses an unsafe field name', () => {
    expect(unsafeTextProblem({ 'na\u202eme': 'x' }, 'body')).toMatch(/field name/);
  });

  it('lets a password keep what it had, but never NUL (the database cannot hold it)', () => {
    expect(unsafeTextProblem({ hospNo: '100001', password: 'pass\u202eword\u001b' }, 'body')).toBeUndefined();
    expect(unsafeTextProblem({ newPassword: 'pass\u202eword' }, 'body')).toBeUndefined();
    expect(unsafeTextProblem({ password: 'a\u0000b' }, 'body')).toBe('password must not contain null characters');
  });

  it('plainText keeps what a person sees and drops only the unsafe characters', () => {
    expect(plainText('Dr\u202e Smith\u0007')).toBe('Dr Smith');
    expect(plainText('مرحبا\u200f بك\n')).toBe('مرحبا\u200f بك\n');
  });
});
