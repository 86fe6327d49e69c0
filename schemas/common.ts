// Building blocks shared by every entity schema. The `unit` keyword is ours: the server's Ajv knows
// it (so range messages can say "mg/dL"), and it carries no validation of its own.
/** Matches any text with a non-space character; validation messages call a failure "must not be empty". */
export const NOT_BLANK = '\\S';

/**
 * Characters no typed text may hold (issue 48): control characters other than tab and line breaks
 * (NUL, ESC, DEL, the C1 block), and the bidirectional embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069) that make a name shown to staff read otherwise than it is
 * ("Trojan Source"). The marks Arabic text needs (U+200E, U+200F, U+061C) are not among them.
 */
export const UNSAFE_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;
const UNSAFE_TEXT_ALL = new RegExp(UNSAFE_TEXT.source, 'gu');

/** Typed or pasted text without the characters of UNSAFE_TEXT: what a form keeps of an input. */
export const plainText = (typed: string): string => typed.replace(UNSAFE_TEXT_ALL, '');

/** The first unsafe character of `text` as U+XXXX, or undefined when there is none. */
export function unsafeCharacterIn(text: string): string | undefined {
  const found = UNSAFE_TEXT.exec(text)?.[0];
  return found === undefined ? undefined : `U+${(found.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

export const uuid = { type: 'string', format: 'uuid' } as const;
export const isoDateTime = { type: 'string', format: 'date-time', maxLength: 40 } as const;
export const isoDate = { type: 'string', format: 'date', maxLength: 10 } as const;

export const hospNo = {
  type: 'string',
  minLength: 1,
  maxLength: 32,
  pattern: '^[A-Za-z0-9][A-Za-z0-9/._-]*$',
  description: 'a hospital number (letters, digits and - / . _, up to 32 characters)',
} as const;

/** Required text: at least one character that is not a space. */
export const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: NOT_BLANK }) as const;
export const optionalText = (maxLength: number) => ({ type: 'string', maxLength }) as const;

/**
 * A row's version (docs/sync-protocol.md): assigned by the database from a per-patient counter,
 * strictly increasing per patient. Bounded (and a whole multiple of 1) so a device can index it.
 */
export const MAX_VERSION = 999_999_999_999_999;
export const syncVersion = { type: 'integer', minimum: 0, maximum: MAX_VERSION, multipleOf: 1 } as const;

/** `<deviceId>:<seq>`: names one write of one device; the server applies it at most once. */
export const mutationId = {
  type: 'string',
  maxLength: 81,
  pattern: '^[A-Za-z0-9-]{1,64}:[0-9]{1,15}$',
  description: '<deviceId>:<sequence number> (letters, digits and -, a colon, then up to 15 digits)',
} as const;

/** The version of the row (or profile) the device's edit was made on; stale edits are refused. */
export const baseVersion = syncVersion;

/**
 * When the patient made the change on the device (its clock). A change sent again on no version
 * after a heal is applied only if it was made after the change its record holds
 * (docs/sync-protocol.md, "A restored server"); the server never takes it as later than its own clock.
 */
export const madeAt = isoDateTime;

/** How far ahead of the server's clock a measurement's time may be (a device clock a little fast), docs/requirements.md §10 */
export const MAX_FUTURE_MS = 5 * 60_000;
/** Whether `at` is later than `now` plus that allowance: a time the server refuses as in the future. */
export function isInTheFuture(at: Date, now: number = Date.now()): boolean {
  return at.getTime() > now + MAX_FUTURE_MS;
}

export const PULL_LIMIT_DEFAULT = 1000;
export const PULL_LIMIT_MAX = 5000;

/**
 * A list GET with `?since=`: an ISO instant (older devices: the changes at or after it, plus deleted
 * ids) or a version (the changes after it, oldest first, at most `limit`, with `deleted`,
 * `checkpoint` and, when more remain, `next`).
 */
export const sinceQuery = {
  type: 'object',
  properties: {
    since: {
      anyOf: [isoDateTime, { type: 'string', pattern: '^[0-9]{1,15}$' }],
      description: 'a valid ISO date and time (for example 2026-11-22T08:30:00Z) or a version number (up to 15 digits)',
    },
    limit: { type: 'integer', minimum: 1, maximum: PULL_LIMIT_MAX },
  },
  additionalProperties: false,
} as const;

export const messageResponse = {
  type: 'object',
  properties: { message: { type: 'string' } },
  required: ['message'],
} as const;

export const deletedIds = { type: 'array', items: uuid } as const;
