// Replication of one RxDB collection with the REST API (DESIGN.md §1):
// - pull: the list GET, as a delta with `?since=` once a checkpoint exists; deleted ids become
//   RxDB deletions. Documents with writes waiting in the outbox when the request went out or when
//   its answer came are skipped, so a pull never shows an older server copy over a change the
//   device has not sent yet (or had not sent when the server answered).
// - push: each changed document becomes an add/update/delete operation in the sealed outbox, then
//   the outbox is drained. The outbox, not RxDB, owns delivery, so a write made offline survives
//   reloads and is sent once, in order, by the page or by the service worker.
//
// Local changes are protected by RxDB until the push handler returns: RxDB then takes the change
// as the server's state and lets a pull overwrite it, counting on the outbox check above. A pull
// that checked the outbox just before the change was queued, and whose answer RxDB writes after
// the handler returned, would put the server's older copy over it (seen as an offline meal-time
// edit replaced by the old time). So the handler returns only once no pull is in flight: one that
// checked too early is written while RxDB still protects the change, and it leaves it alone.
import type { RxCollection, RxReplicationWriteToMasterRow, WithDeleted } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import { filter, firstValueFrom, type BehaviorSubject } from 'rxjs';
import type { ApiClient } from './api-client.ts';
import { enqueue, pendingOps, type OutboxOp } from './outbox.ts';
import { takeRefused } from './refused.ts';

export interface Checkpoint {
  /** The newest `updatedAt` (server clock) seen in a pull. */
  since: string;
}

export type OpDraft = Omit<OutboxOp, 'collection' | 'docId' | 'madeAt'>;

export interface RestMapping<Doc extends { _id: string }> {
  collection: string;
  /** List GET path, e.g. "/glucose". */
  listPath: string;
  /** Server list response → documents and deleted ids. */
  fromList(json: unknown): { docs: Doc[]; deleted: string[] };
  /**
   * A local change → the REST call(s) that make it on the server (undefined or []: nothing to send).
   * `previous` is the state the server was last known to have, for mappings that send differences.
   */
  toOp(doc: WithDeleted<Doc>, isNew: boolean, previous?: WithDeleted<Doc>): OpDraft | OpDraft[] | undefined;
}

/** Pull: one GET, mapped to RxDB documents; exported for tests. */
export async function pullChanges<Doc extends { _id: string; updatedAt?: string }>(
  api: ApiClient,
  mapping: RestMapping<Doc>,
  checkpoint: Checkpoint | undefined,
): Promise<{ documents: WithDeleted<Doc>[]; checkpoint: Checkpoint | undefined }> {
  // RxDB hands back whatever checkpoint was last returned, possibly one without a time (a list
  // whose rows carry no updatedAt): that means "pull everything", never "?since=undefined".
  const path = checkpoint?.since ? `${mapping.listPath}?since=${encodeURIComponent(checkpoint.since)}` : mapping.listPath;
  // A write waiting now may be sent while the request is out, after the server has answered it:
  // the answer is then older than that write although the outbox is empty by the time it comes.
  const waitingBefore = await waitingIds(mapping.collection);
  const { docs, deleted } = mapping.fromList(await api.get<unknown>(path, { quiet: true }));
  const waiting = new Set([...waitingBefore, ...(await waitingIds(mapping.collection))]);
  const gone = new Set([...deleted, ...takeRefused(mapping.collection)]);
  const documents: WithDeleted<Doc>[] = [
    ...docs.filter((d) => !waiting.has(d._id) && !gone.has(d._id)).map((d) => ({ ...d, _deleted: false })),
    ...[...gone].filter((id) => !waiting.has(id)).map((id) => ({ _id: id, _deleted: true }) as WithDeleted<Doc>),
  ];
  const newest = docs.reduce<string | undefined>((max, d) => (d.updatedAt && (!max || d.updatedAt > max) ? d.updatedAt : max), checkpoint?.since);
  return { documents, checkpoint: newest ? { since: newest } : checkpoint };
}

async function waitingIds(collection: string): Promise<string[]> {
  return (await pendingOps()).filter((op) => op.collection === collection).map((op) => op.docId);
}

/** Push: local changes → outbox operations; exported for tests. */
export async function pushChanges<Doc extends { _id: string }>(mapping: RestMapping<Doc>, rows: RxReplicationWriteToMasterRow<Doc>[]): Promise<number> {
  let queued = 0;
  for (const row of rows) {
    const drafts = mapping.toOp(row.newDocumentState, row.assumedMasterState === undefined, row.assumedMasterState);
    for (const op of drafts === undefined ? [] : Array.isArray(drafts) ? drafts : [drafts]) {
      await enqueue({ ...op, collection: mapping.collection, docId: row.newDocumentState._id, madeAt: Date.now() });
      queued++;
    }
  }
  return queued;
}

export interface SyncedCollection {
  state: RxReplicationState<unknown, Checkpoint>;
}

/**
 * Starts live replication of one collection. `afterPush` drains the outbox (wired by the sync
 * controller). The identifier includes the patient, so two patients on one browser never share
 * checkpoints.
 */
export function replicate<Doc extends { _id: string; updatedAt?: string }>(opts: {
  collection: RxCollection<Doc>;
  mapping: RestMapping<Doc>;
  api: ApiClient;
  owner: string;
  afterPush: () => void;
}): RxReplicationState<Doc, Checkpoint> {
  const state: RxReplicationState<Doc, Checkpoint> = replicateRxCollection<Doc, Checkpoint>({
    collection: opts.collection,
    replicationIdentifier: `eddy-${opts.mapping.collection}-${opts.owner}`,
    live: true,
    retryTime: 15_000,
    waitForLeadership: true,
    autoStart: true,
    pull: {
      batchSize: 1000,
      handler: (checkpoint) => pullChanges(opts.api, opts.mapping, checkpoint),
    },
    push: {
      batchSize: 50,
      handler: async (rows) => {
        if ((await pushChanges(opts.mapping, rows)) > 0) {
          opts.afterPush();
          // See the header: a pull that read the outbox before these were queued is written first.
          await pullsSettled(state.internalReplicationState?.events.active.down);
        }
        // The outbox owns delivery; RxDB must not retry or report conflicts for these rows.
        return [];
      },
    },
  });
  return state;
}

/**
 * Resolves when the replication has no pull being fetched or written (RxDB's downstream activity).
 * Pulls never wait for a push (RxDB holds new ones back while a push runs, and only conflicts,
 * which these handlers never report, make a pull wait), so this cannot deadlock; it is bounded by
 * the API client's request timeout.
 */
function pullsSettled(pulling: BehaviorSubject<boolean> | undefined): Promise<void> {
  if (!pulling?.getValue()) return Promise.resolve();
  return firstValueFrom(pulling.pipe(filter((active) => !active))).then(() => undefined);
}
