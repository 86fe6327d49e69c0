// Icons a hospital adds at run time come from the server's icon-data endpoint (docs/requirements.md §7), never from
// a public icon service: the app must work on a ward without internet and must not leak which screens
// a patient opens. A missing icon is cosmetic, so every failure is logged and swallowed.
//
// Icons render with Iconify's offline component, which never asks any API by itself (and weighs a
// half of the full one on the login route); the app keeps its own list of what is registered, and
// <Icon> asks for a missing one here (requestIcon).
import { addCollection } from '@iconify/react/offline';
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

/** Full names ("mdi:stethoscope") of every icon registered, bundled or fetched. */
const registered = new Set<string>();

/** Registers an icon set (its icons and aliases) for <Icon>. */
export function registerIcons(set: IconifyJSON): void {
  addCollection(set);
  for (const name of [...Object.keys(set.icons), ...Object.keys(set.aliases ?? {})]) registered.add(`${set.prefix}:${name}`);
}

/** Whether <Icon> can draw this icon now. */
export const iconLoaded = (name: string): boolean => registered.has(name);

/**
 * Fetches icons by full name ("mdi:stethoscope") from the server and registers them so <Icon> can
 * render them. Already-registered icons are skipped. Always resolves.
 */
export async function loadCustomIcons(names: readonly string[]): Promise<void> {
  const wanted = [...new Set(names)].filter((n) => !iconLoaded(n));
  if (wanted.length === 0) return;
  try {
    for (let i = 0; i < wanted.length; i += MAX_ICONS_PER_REQUEST) {
      registerIcons(await fetchIconSet(wanted.slice(i, i + MAX_ICONS_PER_REQUEST)));
    }
  } catch (err) {
    log.error('Failed to load custom icons', err);
  }
}

let batch: { names: Set<string>; done: Promise<void> } | undefined;
/** Names asked for once: an icon the server does not have is not asked for again on this page. */
const asked = new Set<string>();

let bundled: Promise<void> | undefined;

/** The icons bundled with the app beyond the shell's (bundled-icons.ts), registered once. */
export function loadBundledIcons(): Promise<void> {
  bundled ??= import('./bundled-icons.ts').then(
    (m) => registerIcons(m.bundledIcons),
    (err: unknown) => {
      bundled = undefined; // a chunk missing now may load later
      log.error('Failed to load custom icons', err);
    },
  );
  return bundled;
}

/**
 * An icon <Icon> cannot draw yet: one the app bundles comes from its chunk; any other is asked for
 * from our server, not api.iconify.design, together with the others asked for in the same moment (one
 * request for a screen's icons). Resolves once the answer is in, whatever it was.
 */
export async function requestIcon(name: string): Promise<void> {
  await loadBundledIcons();
  if (registered.has(name) || asked.has(name)) return;
  asked.add(name);
  if (!batch) {
    const names = new Set<string>();
    const done = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
      batch = undefined;
      return loadCustomIcons([...names]);
    });
    batch = { names, done };
  }
  batch.names.add(name);
  await batch.done;
}
