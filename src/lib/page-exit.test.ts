import { afterEach, describe, expect, it, vi } from 'vitest';

// The stand-in for the `unload` package (vite.config.ts): the same API, on `pagehide`.
async function fresh() {
  vi.resetModules();
  return import('./page-exit.ts');
}

function pagehide(persisted: boolean): Event {
  return Object.assign(new Event('pagehide'), { persisted });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('page-exit', () => {
  it('runs what was added when the page goes away, not when it goes into the back/forward cache', async () => {
    const page = new EventTarget();
    vi.stubGlobal('window', page);
    const exit = await fresh();
    const fn = vi.fn();
    exit.add(fn);
    page.dispatchEvent(pagehide(true));
    expect(fn).not.toHaveBeenCalled();
    page.dispatchEvent(pagehide(false));
    expect(fn).toHaveBeenCalledTimes(1);
    expect(exit.getSize()).toBe(0);
  });

  it('has the API broadcast-channel uses: remove, run, runAll, removeAll, getSize', async () => {
    vi.stubGlobal('window', new EventTarget());
    const exit = await fresh();
    const a = vi.fn(() => 'a');
    const b = vi.fn(() => 'b');
    const added = exit.add(a);
    exit.add(b);
    expect(exit.getSize()).toBe(2);
    expect(added.run()).toBe('a');
    expect(exit.getSize()).toBe(1);
    expect(await exit.runAll()).toEqual(['b']);
    exit.add(a).remove();
    exit.add(b);
    exit.removeAll();
    expect(exit.getSize()).toBe(0);
    expect(() => exit.add('no' as unknown as () => void)).toThrow('Listener is no function');
  });
});
