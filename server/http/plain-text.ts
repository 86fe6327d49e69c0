// Text in a request is what a person typed: letters of any script, emoji, tabs and line breaks.
// Control characters and the bidirectional overrides (schemas/common.ts UNSAFE_TEXT) are refused
// wherever they appear, in a field, a key or a write inside a batch, with the field named: a
// patient's name with U+202E reads backwards on the staff's worklist, an ESC reaches a terminal
// that prints the log. Passwords are the one exception: never shown, and a password set before
// this rule must still sign in. U+0000 is refused even there (PostgreSQL text cannot hold it).
import { unsafeCharacterIn } from '../../schemas/common.ts';

const SECRET_KEY = /password$/i;
const NUL = '\u0000';
const MAX_DEPTH = 20;

/** The message for the first unsafe text in `value` (named by its path under `root`), or undefined. */
export function unsafeTextProblem(value: unknown, root: string): string | undefined {
  return walk(value, root, '', false, 0);
}

function walk(value: unknown, root: string, path: string, secret: boolean, depth: number): string | undefined {
  const at = path || root;
  if (typeof value === 'string') {
    if (secret) return value.includes(NUL) ? `${at} must not contain null characters` : undefined;
    const found = unsafeCharacterIn(value);
    return found ? `${at} must not contain control characters or text-direction overrides (found ${found})` : undefined;
  }
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return undefined;
  for (const [key, v] of Object.entries(value)) {
    const keyProblem = unsafeCharacterIn(key);
    if (keyProblem) return `${at} has a field name with a control character or text-direction override (found ${keyProblem})`;
    const problem = walk(v, root, path ? `${path}.${key}` : key, secret || SECRET_KEY.test(key), depth + 1);
    if (problem) return problem;
  }
  return undefined;
}
