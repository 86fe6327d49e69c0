// Icons a hospital adds at run time come from the server's icon-data endpoint (docs/requirements.md §7), never from
// a public icon service: the app must work on a ward without internet and must not leak which screens
// a patient opens. A missing icon is cosmetic, so every failure is logged and swallowed.
//
// Icons are Iconify JSON data (the server resolves aliases, server/routes/icons.ts) drawn by <Icon>
// from the registry kept here; a missing one is asked for here (requestIcon). Iconify's own React
// component cost 3 KB of gzipped script on the login route (issue 49) for what iconSvg does below.
import type { IconifyIcon, IconifyJSON } from '@iconify/types';
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

/** An icon ready to draw: its SVG viewBox and body, with flips and rotation applied (Iconify's rules). */
export interface IconSvg {
  viewBox: string;
  body: string;
}

/** Every icon registered, bundled or fetched, by full name ("mdi:stethoscope"). */
const registered = new Map<string, IconSvg>();

/**
 * An Iconify icon as SVG. Its box is left/top/width/height (the set's defaults where the icon has
 * none); a flip mirrors it inside its box, a rotation turns it by quarter turns about its centre.
 */
export function iconSvg(icon: IconifyIcon, defaults: { width?: number | undefined; height?: number | undefined }): IconSvg {
  let [left, top] = [icon.left ?? 0, icon.top ?? 0];
  let [width, height] = [icon.width ?? defaults.width ?? 16, icon.height ?? defaults.height ?? 16];
  const transforms: string[] = [];
  let rotate = icon.rotate ?? 0;
  if (icon.hFlip && icon.vFlip) rotate += 2;
  else if (icon.hFlip || icon.vFlip) {
    transforms.push(icon.hFlip ? `translate(${width + left} ${-top}) scale(-1 1)` : `translate(${-left} ${height + top}) scale(1 -1)`);
    left = top = 0;
  }
  rotate = ((rotate % 4) + 4) % 4;
  if (rotate === 1) transforms.unshift(`rotate(90 ${height / 2 + top} ${height / 2 + top})`);
  else if (rotate === 2) transforms.unshift(`rotate(180 ${width / 2 + left} ${height / 2 + top})`);
  else if (rotate === 3) transforms.unshift(`rotate(-90 ${width / 2 + left} ${width / 2 + left})`);
  if (rotate % 2 === 1) [left, top, width, height] = [top, left, height, width];
  const body = transforms.length > 0 ? `<g transform="${transforms.join(' ')}">${icon.body}</g>` : icon.body;
  return { viewBox: `${left} ${top} ${width} ${height}`, body };
}

/** Registers an icon set for <Icon>. Aliases are resolved by the server; a set's own ones are kept too. */
export function registerIcons(set: IconifyJSON): void {
  const defaults = { width: set.width, height: set.height };
  for (const [name, icon] of Object.entries(set.icons)) registered.set(`${set.prefix}:${name}`, iconSvg(icon, defaults));
  for (const [name, alias] of Object.entries(set.aliases ?? {})) {
    const parent = Object.hasOwn(set.icons, alias.parent) ? set.icons[alias.parent] : undefined;
    if (parent)
      registered.set(
        `${set.prefix}:${name}`,
        iconSvg(
          {
            ...parent,
            ...alias,
            body: parent.body,
            rotate: (parent.rotate ?? 0) + (alias.rotate ?? 0),
            hFlip: !parent.hFlip !== !alias.hFlip,
            vFlip: !parent.vFlip !== !alias.vFlip,
          },
          defaults,
        ),
      );
  }
}

/** The icon to draw, or undefined while it is not registered. */
export const registeredIcon = (name: string): IconSvg | undefined => registered.get(name);

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
