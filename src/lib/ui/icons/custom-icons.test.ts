import { afterEach, describe, expect, it, vi } from 'vitest';
import { log } from '../../../../sync/log.ts';
import { ICON_FETCH_TIMEOUT_MS, iconLoaded, iconSvg, loadCustomIcons, registeredIcon, registerIcons, requestIcon } from './custom-icons.ts';

const iconSet = (names: string[]) => ({
  prefix: 'mdi',
  icons: Object.fromEntries(names.map((n) => [n, { body: `<path d="M0 0h${n.length}v1z"/>` }])),
  width: 24,
  height: 24,
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('loadCustomIcons', () => {
  it('fetches the icons from the server endpoint and registers them', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => Response.json({ ...iconSet(['custom-a', 'custom-b']), not_found: ['mdi:nope'] }));
    vi.stubGlobal('fetch', fetchMock);
    const error = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    await loadCustomIcons(['mdi:custom-a', 'mdi:custom-b', 'mdi:custom-a']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(new URL(String(url), 'http://x').pathname).toBe('/api/icons');
    expect(new URL(String(url), 'http://x').searchParams.get('icons')).toBe('mdi:custom-a,mdi:custom-b');
    expect(init?.signal).toBeInstanceOf(AbortSignal);
    expect(iconLoaded('mdi:custom-a')).toBe(true);
    expect(error).not.toHaveBeenCalled();
    // Loaded icons are not asked for again.
    await loadCustomIcons(['mdi:custom-b']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('splits long lists into requests of at most 50 names', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      Response.json(iconSet((new URL(url, 'http://x').searchParams.get('icons') ?? '').split(',').map((n) => n.slice(4)))),
    );
    vi.stubGlobal('fetch', fetchMock);
    await loadCustomIcons(Array.from({ length: 120 }, (_, i) => `mdi:bulk-${i}`));
    expect(fetchMock.mock.calls.map(([url]) => new URL(url, 'http://x').searchParams.get('icons')?.split(',').length)).toEqual([50, 50, 20]);
    expect(iconLoaded('mdi:bulk-119')).toBe(true);
  });

  it.each([
    ['a server error', async () => new Response('{"message":"Internal Server Error"}', { status: 500 })],
    ['a body that is not an icon set', async () => Response.json({ hello: 'world' })],
    ['a body that is not JSON', async () => new Response('<html>', { status: 200 })],
    ['a network error', async () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('logs "Failed to load custom icons" and resolves on %s', async (_case, impl) => {
    vi.stubGlobal('fetch', vi.fn(impl));
    const error = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    await expect(loadCustomIcons(['mdi:never-there'])).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]?.[0]).toBe('Failed to load custom icons');
    expect(iconLoaded('mdi:never-there')).toBe(false);
  });

  it(`gives up after ${ICON_FETCH_TIMEOUT_MS} ms`, async () => {
    // A server that never answers: the request only ends when its signal aborts.
    const hanging = (_url: string, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    vi.stubGlobal('fetch', vi.fn(hanging));
    const error = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    const started = performance.now();
    await loadCustomIcons(['mdi:slow-one']);
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(ICON_FETCH_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(ICON_FETCH_TIMEOUT_MS + 1500);
    expect(error.mock.calls[0]?.[0]).toBe('Failed to load custom icons');
    expect((error.mock.calls[0]?.[1] as Error).name).toBe('TimeoutError');
  });
});

describe('requestIcon', () => {
  it('asks the server once for the icons asked for in the same moment, and never again for one it lacks', async () => {
    const fetchMock = vi.fn(async (_url: string) => Response.json(iconSet(['screen-a', 'screen-b'])));
    vi.stubGlobal('fetch', fetchMock);
    await Promise.all([requestIcon('mdi:screen-a'), requestIcon('mdi:screen-b'), requestIcon('mdi:screen-c'), requestIcon('mdi:screen-a')]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://x').searchParams.get('icons')).toBe('mdi:screen-a,mdi:screen-b,mdi:screen-c');
    expect([iconLoaded('mdi:screen-a'), iconLoaded('mdi:screen-b'), iconLoaded('mdi:screen-c')]).toEqual([true, true, false]);
    // The one the server does not have is not asked for again by every icon that shows it.
    await requestIcon('mdi:screen-c');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('iconSvg', () => {
  const body = '<path d="M0 0h4v2z"/>';
  it('draws an icon in its box, the set giving the size an icon lacks', () => {
    expect(iconSvg({ body }, { width: 24, height: 24 })).toEqual({ viewBox: '0 0 24 24', body });
    expect(iconSvg({ body, left: 2, top: 1, width: 20 }, { width: 24, height: 24 })).toEqual({ viewBox: '2 1 20 24', body });
  });

  it('mirrors and turns as Iconify does: a flip inside the box, a quarter turn about the centre with the box turned too', () => {
    const square = { width: 24, height: 24 };
    expect(iconSvg({ body, hFlip: true }, square).body).toBe(`<g transform="translate(24 0) scale(-1 1)">${body}</g>`);
    expect(iconSvg({ body, vFlip: true }, square).body).toBe(`<g transform="translate(0 24) scale(1 -1)">${body}</g>`);
    // Both flips are half a turn.
    expect(iconSvg({ body, hFlip: true, vFlip: true }, square).body).toBe(`<g transform="rotate(180 12 12)">${body}</g>`);
    expect(iconSvg({ body, rotate: 1 }, { width: 16, height: 24 })).toEqual({ viewBox: '0 0 24 16', body: `<g transform="rotate(90 12 12)">${body}</g>` });
    expect(iconSvg({ body, rotate: 3 }, { width: 16, height: 24 })).toEqual({ viewBox: '0 0 24 16', body: `<g transform="rotate(-90 8 8)">${body}</g>` });
    expect(iconSvg({ body, rotate: 4 }, square)).toEqual({ viewBox: '0 0 24 24', body });
  });

  it("registers a set's aliases with their parent's drawing and their own turn", () => {
    registerIcons({
      prefix: 'test',
      icons: { arrow: { body } },
      aliases: { 'arrow-down': { parent: 'arrow', rotate: 1 }, lost: { parent: 'missing' } },
      width: 24,
      height: 24,
    });
    expect(registeredIcon('test:arrow')).toEqual({ viewBox: '0 0 24 24', body });
    expect(registeredIcon('test:arrow-down')?.body).toBe(`<g transform="rotate(90 12 12)">${body}</g>`);
    expect(iconLoaded('test:lost')).toBe(false);
  });
});
