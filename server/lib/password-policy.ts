// New passwords as NIST SP 800-63B §5.1.1.2 asks (issue 48): at least PASSWORD_MIN_LENGTH characters,
// up to the schema's maximum (200, over the 64 it asks for), any characters, no composition rules,
// and never one that attackers try first:
// - one of the 49,000 most common passwords of published breach corpora (zxcvbn-ts's common list,
//   @zxcvbn-ts/language-common, the list password meters of the field ship), whatever its case;
// - one character repeated or a run of the keyboard's order ("aaaaaaaa", "12345678", "abcdefgh",
//   "abcabcabc", "98765432");
// - a word of its own context: the hospital number in it, or the service's or the account's name or
//   e-mail with nothing but digits or signs around it ("eddy2026!", "maria.lopez1").
// Applies wherever a password is chosen: a patient's new password (POST /auth/updatePassword) and a
// staff password given to the admin CLI. A temporary password the server makes is random.
import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MIN_LENGTH, type PasswordProblem } from '../../schemas/auth.ts';

/** What the API answers (400, `code: 'weak-password'`, `reason`), in the spec's plain register. */
export const PASSWORD_PROBLEM_MESSAGES: Readonly<Record<PasswordProblem, string>> = {
  'too-short': `The new password needs at least ${PASSWORD_MIN_LENGTH} characters.`,
  common: 'This password is one of the most common ones and easy to guess. Choose another one: a few unrelated words make a strong password.',
  repetitive:
    'This password is a repeated or sequential run of characters and easy to guess. Choose another one: a few unrelated words make a strong password.',
  context: 'This password contains your hospital number, your name or the name of the app. Choose another one: a few unrelated words make a strong password.',
};

let common: ReadonlySet<string> | undefined;
/** Built on first use (the list is decompressed then): about 49,000 entries, lower case. */
const commonPasswords = (): ReadonlySet<string> => (common ??= new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase())));

/** The longest piece that, repeated, makes up the whole (e.g. "abcabcabc" → "abc"). */
function repeatedUnit(s: string): string {
  for (let size = 1; size <= s.length / 2; size++) {
    if (s.length % size !== 0) continue;
    const unit = s.slice(0, size);
    if (unit.repeat(s.length / size) === s) return unit;
  }
  return s;
}

/** Whether each character is the one before plus (or minus) one: "12345678", "abcdefgh", "87654321". */
function isRun(s: string): boolean {
  if (s.length < 3) return false;
  const step = s.charCodeAt(1) - s.charCodeAt(0);
  if (step !== 1 && step !== -1) return false;
  for (let i = 2; i < s.length; i++) if (s.charCodeAt(i) - s.charCodeAt(i - 1) !== step) return false;
  return true;
}

/** Lower case, without the spaces, dots, dashes and underscores people put between words. */
const squeeze = (s: string) => s.toLowerCase().replace(/[\s._-]+/g, '');

/**
 * Why `password` must not be chosen, or undefined when it may. `context` holds the words of the
 * account it is for (hospital number, name, e-mail); the service's name is always one.
 */
export function passwordProblem(password: string, context: readonly (string | undefined)[] = []): PasswordProblem | undefined {
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'too-short';
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower) || commonPasswords().has(lower.trim())) return 'common';
  const unit = repeatedUnit(lower);
  if (unit.length <= 3 || isRun(lower) || isRun(unit)) return 'repetitive';
  // Digits and signs around a word add little: "maria2026!" is "maria".
  // …and so is a word said twice: "eddy-eddy-2026" is "eddy".
  const core = repeatedUnit(squeeze(lower).replace(/^[^\p{L}]+|[^\p{L}]+$/gu, ''));
  for (const word of ['eddy', ...context]) {
    const w = word ? squeeze(word) : '';
    if (w.length < 3) continue;
    // A hospital number (digits) is found anywhere in the password; a name or address when it is the whole.
    if (/^\d+$/.test(w) ? lower.includes(w) : core === w || core === w.replace(/@.*$/, '')) return 'context';
    // A name split into its parts: "Maria Lopez" → "maria", "lopez".
    for (const part of word?.toLowerCase().split(/[\s@._-]+/) ?? []) if (part.length >= 3 && core === part) return 'context';
  }
  return undefined;
}
