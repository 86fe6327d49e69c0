import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IconifyJSON } from '@iconify/types';
import { describe, expect, it } from 'vitest';
import { bundledIcons } from './bundled-icons.ts';
import { shellIcons } from './shell-icons.ts';

const require = createRequire(import.meta.url);
const mdi = JSON.parse(readFileSync(require.resolve('@iconify-json/mdi/icons.json'), 'utf8')) as IconifyJSON;

describe('bundled icons', () => {
  it('are exact copies of @iconify-json/mdi entries', () => {
    for (const set of [shellIcons, bundledIcons]) {
      expect(set.width).toBe(mdi.width);
      expect(set.height).toBe(mdi.height);
      for (const [name, icon] of Object.entries(set.icons)) {
        expect(icon, `mdi:${name}; copy it from node_modules/@iconify-json/mdi/icons.json`).toEqual(mdi.icons[name]);
      }
    }
  });

  it('stay a small subset, each icon in one of the two sets', () => {
    const names = [...Object.keys(shellIcons.icons), ...Object.keys(bundledIcons.icons)];
    expect(names.length).toBeLessThan(60);
    expect(new Set(names).size).toBe(names.length);
  });
});
