import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IconifyJSON } from '@iconify/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, type Harness } from '../testing/harness.ts';

let h: Harness;
const mdi = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@iconify-json/mdi/icons.json'), 'utf8')) as IconifyJSON;
const LIST_MESSAGE = 'icons must be a comma-separated list of 1 to 50 icon names such as mdi:home,mdi:heart';

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('GET /api/icons', () => {
  it('returns Iconify JSON for the requested icons, publicly and cacheable for a day', async () => {
    const res = await call(h.app, 'GET', '/api/icons?icons=mdi:home,mdi:heart');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.json).toEqual({
      prefix: 'mdi',
      icons: { home: mdi.icons['home'], heart: mdi.icons['heart'] },
      width: 24,
      height: 24,
    });
  });

  it('accepts the URL-encoded form a browser sends', async () => {
    const res = await call(h.app, 'GET', `/api/icons?${new URLSearchParams({ icons: 'mdi:stethoscope,mdi:needle' }).toString()}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json['icons'] as object)).toEqual(['stethoscope', 'needle']);
  });

  it('resolves aliases to their parent icon under the requested name', async () => {
    expect(mdi.aliases?.['1password']?.parent).toBe('onepassword');
    const res = await call(h.app, 'GET', '/api/icons?icons=mdi:1password');
    expect(res.json['icons']).toEqual({ '1password': mdi.icons['onepassword'] });
  });

  it('lists unknown names, other icon sets and prototype keys in not_found', async () => {
    const res = await call(h.app, 'GET', '/api/icons?icons=mdi:home,mdi:no-such-icon,fa:home,mdi:constructor,mdi:home');
    expect(res.status).toBe(200);
    expect(Object.keys(res.json['icons'] as object)).toEqual(['home']);
    expect(res.json['not_found']).toEqual(['mdi:no-such-icon', 'fa:home', 'mdi:constructor']);
  });

  it('serves 50 names in one request', async () => {
    const names = Object.keys(mdi.icons)
      .slice(0, 50)
      .map((n) => `mdi:${n}`);
    const res = await call(h.app, 'GET', `/api/icons?icons=${names.join(',')}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json['icons'] as object)).toHaveLength(50);
  });

  it.each([
    ['', 'icons is required'],
    ['?icons=', 'icons must not be empty'],
    ['?icons=home', LIST_MESSAGE],
    ['?icons=mdi:Home', LIST_MESSAGE],
    ['?icons=mdi:home,', LIST_MESSAGE],
    ['?icons=mdi:home,,mdi:heart', LIST_MESSAGE],
    ['?icons=mdi:home%20mdi:heart', LIST_MESSAGE],
    ['?icons=mdi:../../etc/passwd', LIST_MESSAGE],
    [`?icons=${Array.from({ length: 51 }, (_, i) => `mdi:i${i}`).join(',')}`, LIST_MESSAGE],
    [`?icons=mdi:${'a'.repeat(5000)}`, 'icons must be at most 4000 characters long'],
    ['?icons=mdi:home&icons=mdi:heart', 'icons must be a string'],
  ])('answers 400 with a clear message for %s', async (query, message) => {
    const res = await call(h.app, 'GET', `/api/icons${query}`);
    expect(res.status).toBe(400);
    expect(res.json['message']).toBe(message);
  });
});
