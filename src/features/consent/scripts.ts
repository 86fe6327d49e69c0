// The registry of third-party scripts that need consent (docs/requirements.md §4): an analytics script loads only
// while "Analytics" is allowed, a functional one only while "Functional" is; c15t's script loader
// adds and removes them as the choice changes (the banner, the reset, another tab). None is
// configured: Eddy sends nothing to third parties. To add one, list it here and allow its origin in
// the server's Content Security Policy (script-src in server/app.ts).
import type { C15tScript } from './c15t.ts';
import { PURPOSE_OF, type ConsentCategory } from './consent-config.ts';

export interface ConsentScript {
  /** Stable name, e.g. "matomo"; c15t gives the element a random id so pages cannot probe for it. */
  id: string;
  src: string;
  category: ConsentCategory;
}

export const consentScripts: readonly ConsentScript[] = [];

export function toC15tScripts(scripts: readonly ConsentScript[]): C15tScript[] {
  return scripts.map(({ id, src, category }) => ({ id, src, category: PURPOSE_OF[category], async: true }));
}
