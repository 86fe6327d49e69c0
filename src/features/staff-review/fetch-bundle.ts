import type { ApiClient } from '../../../sync/api-client.ts';
import { staffReads, type StaffRead } from '../../lib/staff-api.ts';
import type { ReviewBundle } from './types.ts';

type Review = NonNullable<ReturnType<typeof staffReads.review>['answer']>;

/** A row of a review list: its id. */
interface Listed {
  _id: string;
}

/** The ids a list's changes replace or remove. */
const goneOf = (deleted: readonly string[] | undefined, ...changed: readonly Listed[][]): Set<string> =>
  new Set([...(deleted ?? []), ...changed.flat().map((r) => r._id)]);

/**
 * One list brought up to date: a changed row replaces its old self wherever it was (a reading
 * whose type changed moves to the other list), a deleted one goes, and the list keeps the server's
 * order, newest first by `at`.
 */
const mergeRows = <T extends Listed>(held: readonly T[], changed: readonly T[], gone: Set<string>, at: (row: T) => string): T[] =>
  [...held.filter((r) => !gone.has(r._id)), ...changed].sort((x, y) => at(y).localeCompare(at(x)));

/** Newest first by the list's own time, as the server orders a whole list. */
const byRecorded = (r: { recordedAt: string }) => r.recordedAt;

/**
 * The review as this device should hold it: the server's answer whole, or, when the device held
 * the review at a version and the answer carries only the changes since, that copy brought up to
 * date. The bundle keeps the version it reflects, for the next refresh.
 */
export function applyReview(held: ReviewBundle | undefined, r: Review): ReviewBundle {
  const base = r.full || held?.version === undefined ? undefined : held;
  const g = r.glucose;
  const readingsGone = goneOf(g.deleted, g.fasting, g.postprandial, g.random);
  const one = <T extends Listed>(kept: readonly T[] | undefined, changed: readonly T[], deleted: readonly string[] | undefined, at: (row: T) => string): T[] =>
    kept ? mergeRows(kept, changed, goneOf(deleted, [...changed]), at) : [...changed];
  return {
    hospNo: r.hospNo,
    version: r.version,
    asOf: r.asOf,
    profile: r.profile,
    patient: r.patient,
    glucose: {
      fasting: base ? mergeRows(base.glucose.fasting, g.fasting, readingsGone, byRecorded) : g.fasting,
      postprandial: base ? mergeRows(base.glucose.postprandial, g.postprandial, readingsGone, byRecorded) : g.postprandial,
      random: base ? mergeRows(base.glucose.random, g.random, readingsGone, byRecorded) : g.random,
    },
    symptoms: one(base?.symptoms, r.symptoms.symptoms, r.symptoms.deleted, byRecorded),
    tests: one(base?.tests, r.tests.tests, r.tests.deleted, byRecorded),
    appointments: one(base?.appointments, r.appointments.appointments, r.appointments.deleted, (a) => a.date),
    prescriptions: r.prescriptions,
    doses: one(base?.doses, r.doses.taken, r.doses.deleted, (d) => d.takenAt),
    lastSyncAt: r.profile.lastSyncAt ?? null,
  };
}

/**
 * The review of one patient from the server in one request (one snapshot, audited once): only what
 * changed since the version of `held` when the device holds one, else whole. A refresh of a copy
 * already on screen runs in the background, without the full-screen loader over it.
 */
export async function fetchReview(api: Pick<ApiClient, 'get'>, hospNo: string, held?: ReviewBundle): Promise<ReviewBundle> {
  const base = held?.hospNo === hospNo ? held : undefined;
  const read: StaffRead<Review> = staffReads.review(hospNo, base?.version);
  return applyReview(base, await api.get<Review>(read.path, { quiet: base !== undefined }));
}
