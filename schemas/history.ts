// A device's check that the server still holds the history it has seen (docs/sync-protocol.md,
// "A restored server").
import type { FromSchema } from 'json-schema-to-ts';
import { mutationId, uuid } from './common.ts';

/** At most this many acknowledged mutation ids per check (the latest ones: see the protocol). */
export const HISTORY_ACKED_MAX = 50;

export const historyCheckSchema = {
  type: 'object',
  properties: {
    /** The mark this device was last given; absent on its first check. */
    seen: uuid,
    /** Mutation ids the server acknowledged to this device since it was given `seen`, latest last. */
    acked: { type: 'array', items: mutationId, maxItems: HISTORY_ACKED_MAX },
  },
  additionalProperties: false,
} as const;
export type HistoryCheck = FromSchema<typeof historyCheckSchema>;

/**
 * The 409 code of a write stated on a version the server never gave that record (`baseVersion`
 * above the record's own): the device learnt it from a history the server no longer has (a
 * restored or replaced database). The device checks the server's history and heals it before it
 * sends anything more (sync/drain.ts), so its own later write never lands before an earlier one
 * the restore lost.
 */
export const BASE_VERSION_UNKNOWN = 'base-version-unknown';

/**
 * The 409 code of a write sent again on no version (after a heal, sync/history.ts) whose record
 * (or meal time) already holds a change made after it, on another device or by staff: the later
 * change stays and nothing is changed. The device drops its write and takes the server's copy at
 * its next pull; nothing is left for the patient to decide.
 */
export const SUPERSEDED = 'superseded';
export const SUPERSEDED_MESSAGE = 'A later change to this entry, made on another device, is already on the server: it stays.';
