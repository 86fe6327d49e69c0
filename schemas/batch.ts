// A batch of patient writes (docs/sync-protocol.md, "Replaying in batches"): the writes a device
// queued, in order, sent in one request when it is back online. Each is the body its own route takes
// (with its mutation id); the server runs them in order in one transaction, each at most once, and
// stops at the first it refuses.

import { BATCH_PATHS } from './mutations.ts';

// The routes whose writes may go in a batch are the registry's (schemas/mutations.ts, `batch`).
export { BATCH_PATHS, type BatchPath } from './mutations.ts';

/** Writes per batch: a day's offline writes in a handful of requests, each answered in well under the device's request timeout. */
export const BATCH_MAX = 100;

export const batchSchema = {
  type: 'object',
  properties: {
    mutations: {
      type: 'array',
      minItems: 1,
      maxItems: BATCH_MAX,
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', enum: BATCH_PATHS },
          body: { type: 'object' },
        },
        required: ['path', 'body'],
        additionalProperties: false,
      },
    },
  },
  required: ['mutations'],
  additionalProperties: false,
} as const;

/**
 * The answer: one result per write that ran, in order, each the status and body its own route would
 * have answered (`repeat` where the mutation id had been applied before). Fewer results than writes:
 * the last one was refused or failed, and the writes after it did not run.
 */
export const batchResponseSchema = {
  type: 'object',
  properties: {
    results: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          status: { type: 'integer', minimum: 200, maximum: 599 },
          // Kept whole: the answer its write's own route gives (the server's serializer drops what a
          // schema does not list, and this one lists nothing).
          body: { type: 'object', additionalProperties: true },
          repeat: { type: 'boolean' },
        },
        required: ['status', 'body'],
        additionalProperties: false,
      },
    },
  },
  required: ['results'],
  additionalProperties: false,
} as const;
