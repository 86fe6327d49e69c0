// Every place the sync reaches into RxDB's replication below its public API, in one module. RxDB
// does not promise these across versions, so `rxdb` is pinned exactly (package.json) and
// rxdb-internals.test.ts is their contract: it runs a real replication and checks each of them, and
// an upgrade of RxDB starts with that test.
//
// - `downstreamActive`: whether RxDB's pull side (downstream) is busy writing what a pull brought
//   (`internalReplicationState.events.active.down`).
// - `assumedServerStates`: the state RxDB last took the server to have for each document, its
//   "assumed master state" (`getAssumedMasterState`).
// - `pullMarks`: whether a document's copy on the device is exactly what this replication's pull
//   wrote: RxDB marks a pulled write with the replication's hash and the revision height it made
//   (`_meta.o` on the fork's documents, `forkInstance`).
// - `firstUpstreamPass`: whether the push side (upstream) has gone once through the changes saved
//   before it started (`internalReplicationState.firstSyncDone.up`).
// - `writeTimeOf` and `moveRxdbClockPast`: a change's write time (`_meta.lwt`, which the push side
//   finds unsent changes by) and RxDB's clock, which never goes back within a page and takes
//   `Date.now()` when that is ahead (sync/storage/write-clock.ts keeps write times rising).
import { getAssumedMasterState, getHeightOfRevision, now as rxdbNow } from 'rxdb';
import type { RxReplicationState } from 'rxdb/plugins/replication';
import type { BehaviorSubject, Observable } from 'rxjs';

/** Whether RxDB's pull side is writing what a pull brought; undefined before the replication starts. */
export function downstreamActive<Doc, C>(state: Pick<RxReplicationState<Doc, C>, 'internalReplicationState'>): Observable<boolean> | undefined {
  return state.internalReplicationState?.events.active.down;
}

/** The state RxDB last took the server to have for these documents (those it knows of), as plain data. */
export async function assumedServerStates<Doc, C>(
  state: Pick<RxReplicationState<Doc, C>, 'internalReplicationState'>,
  ids: string[],
): Promise<Map<string, Record<string, unknown>>> {
  const internal = state.internalReplicationState;
  const out = new Map<string, Record<string, unknown>>();
  if (!internal || ids.length === 0) return out;
  const known = await getAssumedMasterState(internal, ids);
  for (const [id, k] of Object.entries(known)) out.set(id, k.docData as Record<string, unknown>);
  return out;
}

/** A document on the device as this replication's pull left its mark on it. */
export interface PullMark<Doc> {
  doc: Doc;
  /** The copy is the revision this replication's pull wrote (nothing changed it since). */
  pulled: boolean;
  /** Its revision is its first (RxDB's storage drops the pull's mark when a pull inserts a record). */
  firstRevision: boolean;
}

/** Whether each of these documents' copies on the device is what this replication's pull wrote. */
export async function pullMarks<Doc extends { _id: string }, C>(
  state: Pick<RxReplicationState<Doc, C>, 'internalReplicationState'>,
  ids: string[],
): Promise<PullMark<Doc>[]> {
  const input = state.internalReplicationState?.input;
  if (!input || ids.length === 0) return [];
  const hash = await identifierHashOf(input);
  const docs = await input.forkInstance.findDocumentsById(ids, true);
  return docs.map((d) => {
    const height = getHeightOfRevision(d._rev);
    const o = d._meta.o;
    return { doc: d, pulled: o?.hash === hash && o._rev === height, firstRevision: height === 1 };
  });
}

/** This replication's hash as RxDB marks its pulled writes with (computed once per replication). */
const identifierHashes = new WeakMap<object, Promise<string>>();
function identifierHashOf(input: { identifier: string; hashFunction: (text: string) => Promise<string> }): Promise<string> {
  let hash = identifierHashes.get(input);
  if (!hash) identifierHashes.set(input, (hash = input.hashFunction(input.identifier)));
  return hash;
}

/** What of a running replication `firstUpstreamPass` reads (a test may stand in for it). */
export interface UpstreamView {
  readonly wasStarted: boolean;
  readonly internalReplicationState?: { readonly firstSyncDone: { readonly up: BehaviorSubject<boolean> } };
}

/** Whether the push side has gone once through the changes saved before it started; undefined before it starts. */
export function firstUpstreamPass(state: UpstreamView): BehaviorSubject<boolean> | undefined {
  return state.internalReplicationState?.firstSyncDone.up;
}

/** A changed document's write time (`_meta.lwt`, ms), when it has one. */
export function writeTimeOf(documentData: unknown): number | undefined {
  if (typeof documentData !== 'object' || documentData === null || !('_meta' in documentData)) return undefined;
  const meta = documentData._meta;
  if (typeof meta !== 'object' || meta === null || !('lwt' in meta)) return undefined;
  return typeof meta.lwt === 'number' ? meta.lwt : undefined;
}

/** Moves RxDB's clock (which never goes back within a page) past `time`, if it is behind it. */
export function moveRxdbClockPast(time: number): void {
  const past = Math.ceil(time);
  if (past <= Date.now()) return;
  // RxDB's clock takes Date.now() when it is ahead of the last value it gave: one call with this
  // time moves it there (synchronously; nothing else runs meanwhile).
  const deviceNow = Date.now;
  Date.now = () => past;
  try {
    rxdbNow();
  } finally {
    Date.now = deviceNow;
  }
}
