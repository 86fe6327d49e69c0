// The icon-data endpoint (docs/requirements.md §7): Iconify JSON for the icons a screen needs beyond the bundled ones,
// served from the Material Design Icons set on disk so no browser ever asks a public icon service.
// Public (icons carry no patient data) and cacheable for a day.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IconifyIcon, IconifyJSON } from '@iconify/types';
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { answers, iconSet } from '../../schemas/api.ts';

export const MAX_ICONS = 50;
const NAME = '[a-z0-9]+(?:-[a-z0-9]+)*';
const FULL_NAME = `${NAME}:${NAME}`;

export const iconsQuery = {
  type: 'object',
  properties: {
    icons: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_ICONS * 80,
      pattern: `^${FULL_NAME}(?:,${FULL_NAME}){0,${MAX_ICONS - 1}}$`,
      description: `a comma-separated list of 1 to ${MAX_ICONS} icon names such as mdi:home,mdi:heart`,
    },
  },
  required: ['icons'],
  additionalProperties: false,
} as const;

// Parsed on the first request, not at start-up: it is a 3 MB file most instances never need.
let mdiSet: IconifyJSON | undefined;
function mdi(): IconifyJSON {
  if (!mdiSet) {
    const file = createRequire(import.meta.url).resolve('@iconify-json/mdi/icons.json');
    // The icon package's own data file, of the type the package declares for it: not checked (3 MB).
    mdiSet = JSON.parse(readFileSync(file, 'utf8')) as IconifyJSON;
  }
  return mdiSet;
}

type IconData = Pick<IconifyIcon, 'body' | 'width' | 'height' | 'left' | 'top' | 'rotate' | 'hFlip' | 'vFlip'>;

/** An icon or an alias of one, with the alias's transformations applied on top of its parent's. */
function resolveIcon(set: IconifyJSON, name: string, depth = 0): IconData | undefined {
  // Names are checked against own keys only: "constructor" must not find Object.prototype's.
  if (Object.hasOwn(set.icons, name)) return { ...set.icons[name]! };
  const alias = set.aliases && Object.hasOwn(set.aliases, name) ? set.aliases[name] : undefined;
  if (!alias || depth > 5) return undefined;
  const parent = resolveIcon(set, alias.parent, depth + 1);
  if (!parent) return undefined;
  const out: IconData = { ...parent };
  for (const key of ['left', 'top', 'width', 'height'] as const) {
    const value = alias[key];
    if (value !== undefined) out[key] = value;
  }
  if (alias.rotate) out.rotate = ((parent.rotate ?? 0) + alias.rotate) % 4;
  if (alias.hFlip) out.hFlip = !parent.hFlip;
  if (alias.vFlip) out.vFlip = !parent.vFlip;
  return out;
}

export function iconRoutes(api: TypedApp, _ctx: AppContext): void {
  api.get(
    '/icons',
    { schema: { summary: 'Icon data for the named icons, in Iconify JSON', querystring: iconsQuery, response: answers(iconSet) } },
    async (req, reply) => {
      const set = mdi();
      const icons: Record<string, IconData> = {};
      const notFound: string[] = [];
      for (const full of new Set(req.query.icons.split(','))) {
        const [prefix = '', name = ''] = full.split(':');
        const icon = prefix === set.prefix ? resolveIcon(set, name) : undefined;
        if (icon) icons[name] = icon;
        else notFound.push(full);
      }
      void reply.header('cache-control', 'public, max-age=86400');
      return {
        prefix: set.prefix,
        icons,
        width: set.width ?? 16,
        height: set.height ?? 16,
        ...(notFound.length > 0 ? { not_found: notFound } : {}),
      };
    },
  );
}
