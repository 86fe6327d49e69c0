// Building blocks shared by every entity schema. The `unit` keyword is ours: the server's Ajv knows
// it (so range messages can say "mg/dL"), and it carries no validation of its own.
/** Matches any text with a non-space character; validation messages call a failure "must not be empty". */
export const NOT_BLANK = '\\S';

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

/** A list GET with `?since=` returns only what changed after that instant, plus deleted ids. */
export const sinceQuery = {
  type: 'object',
  properties: { since: isoDateTime },
  additionalProperties: false,
} as const;

export const messageResponse = {
  type: 'object',
  properties: { message: { type: 'string' } },
  required: ['message'],
} as const;

export const deletedIds = { type: 'array', items: uuid } as const;
