import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { inBackground } from './background.ts';

// Lets every promise callback that is already due run.
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('inBackground', () => {
  let errors: MockInstance<typeof console.error>;
  beforeEach(() => {
    errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    errors.mockRestore();
  });

  it('logs a rejection once, with the message and the error, instead of leaving it unhandled', async () => {
    const failure = new Error('disk full');
    inBackground(Promise.reject(failure), 'Saving the reading failed');
    expect(errors).not.toHaveBeenCalled(); // it does not wait: the rejection is handled later
    await settle();
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors).toHaveBeenCalledWith('Saving the reading failed', failure);
  });

  it('logs nothing when the work succeeds', async () => {
    let done = false;
    inBackground(
      settle().then(() => (done = true)),
      'never logged',
    );
    await settle();
    await settle();
    expect(done).toBe(true);
    expect(errors).not.toHaveBeenCalled();
  });

  it('accepts no work at all (optional work such as `db?.insert(…)`)', async () => {
    expect(() => inBackground(undefined, 'never logged')).not.toThrow();
    await settle();
    expect(errors).not.toHaveBeenCalled();
  });
});
