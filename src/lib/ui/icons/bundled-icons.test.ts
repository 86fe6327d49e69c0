import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IconifyJSON } from '@iconify/types';
import { describe, expect, it } from 'vitest';
import { bundledIcons } from './bundled-icons.ts';

const require = createRequire(import.meta.url);
const mdi = JSON.parse(readFileSync(require.resolve('@iconify-json/mdi/icons.json'), 'utf8')) as IconifyJSON;

describe('bundled icons', () => {
  it('are exact copies of @iconify-json/mdi entries', () => {
    expect(bundledIcons.width).toBe(mdi.width);
    expect(bundledIcons.height).toBe(mdi.height);
    for (const [name, icon] of Object.entries(bundledIcons.icons)) {
      expect(icon, `mdi:${name}; copy it from node_modules/@iconify-json/mdi/icons.json`).toEqual(mdi.icons[name]);
    }
  });

  it('stay a small subset', () => {
    expect(Object.keys(bundledIcons.icons).length).toBeLessThan(60);
  });
});
