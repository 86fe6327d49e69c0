// Icons a hospital adds at run time come from the server's icon-data endpoint (spec §7), never from
// a public icon service: the app must work on a ward without internet and must not leak which screens
// a patient opens. A missing icon is cosmetic, so every failure is logged and swallowed.
import { addCollection, iconLoaded, setCustomIconsLoader } from '@iconify/react';
import type { IconifyJSON } from '@iconify/types';
import { log } from '../../../../sync/log.ts';

export const ICONS_ENDPOINT = '/api/icons';
export const ICON_FETCH_TIMEOUT_MS = 1500;
/** The server's limit per request. */
export const MAX_ICONS_PER_REQUEST = 50;

function isIconSet(value: unknown): value is IconifyJSON {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['prefix'] === 'string' && typeof v['icons'] === 'object' && v['icons'] !== null;
}

/** One request to the endpoint; throws on a network error, a timeout, a non-2xx or a malformed body. */
async function fetchIconSet(names: readonly string[]): Promise<IconifyJSON> {
  const url = `${ICONS_ENDPOINT}?${new URLSearchParams({ icons: names.join(',') }).toString()}`;
  const res = await fetch(url, { signal: AbortSignal.timeout(ICON_FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET ${ICONS_ENDPOINT} answered ${res.status}`);
  const body: unknown = await res.json();
  if (!isIconSet(body)) throw new Error(`GET ${ICONS_ENDPOINT} returned no icon set`);
  // `not_found` lists the names as requested ("mdi:x"), while Iconify reads it as names inside the prefix.
  const set = { ...body };
  delete set.not_found;
  return set;
}

/**
 * Fetches icons by full name ("mdi:stethoscope") from the server and registers them so <Icon> can
 * render them. Already-registered icons are skipped. Always resolves.
 */
export async function loadCustomIcons(names: readonly string[]): Promise<void> {
  const wanted = [...new Set(names)].filter((n) => !iconLoaded(n));
  if (wanted.length === 0) return;
  try {
    for (let i = 0; i < wanted.length; i += MAX_ICONS_PER_REQUEST) {
      const set = await fetchIconSet(wanted.slice(i, i + MAX_ICONS_PER_REQUEST));
      if (!addCollection(set)) throw new Error(`icon set "${set.prefix}" was not accepted`);
    }
  } catch (err) {
    log.error('Failed to load custom icons', err);
  }
}

/**
 * Makes <Icon icon="mdi:…"> ask our server, not api.iconify.design, for an mdi icon that is not bundled.
 */
export function askServerForMissingIcons(prefix = 'mdi'): void {
  setCustomIconsLoader(async (names) => {
    try {
      return await fetchIconSet(names.map((n) => `${prefix}:${n}`));
    } catch (err) {
      log.error('Failed to load custom icons', err);
      return null;
    }
  }, prefix);
}
