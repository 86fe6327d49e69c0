// Replication of one RxDB collection with the REST API (docs/architecture.md):
// - pull: the list GET by server version (`?since=<version>`, paged with the server's cursor);
//   deleted ids become RxDB deletions. Documents with writes waiting in the outbox when the request went out or when
//   its answer came, or refused and not yet decided by the patient, are skipped, so a pull never shows an older server copy over a change the
//   device has not sent yet (or had not sent when the server answered).
// - push: each changed document becomes named mutations (with the version it was based on) in the
//   sealed outbox, then the outbox is drained. The outbox, not RxDB, owns delivery, so a write made offline survives
//   reloads and is sent once, in order, by the page or by the service worker.
//
// Local changes are protected by RxDB until the push handler returns: RxDB then takes the change
// as the server's state and lets a pull overwrite it, counting on the outbox check above. A pull
// that checked the outbox just before the change was queued, and whose answer RxDB writes after
// the handler returned, would put the server's older copy over it (seen as an offline meal-time
// edit replaced by the old time). So the handler returns only once no pull's answer is still to
// come or to be written: one that checked too early is written while RxDB still protects the
// change, and it leaves it alone. A pull that failed has no answer to write; the handler does not
// wait for RxDB to try it again (up to `retryTime` later), or every later change would stay out
// of the outbox meanwhile, where neither the drain nor the service worker can send it (changes made
// offline in one tab were then sent by the other only 15 s after the network came back).
import type { RxCollection, RxReplicationWriteToMasterRow, WithDeleted } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import { BehaviorSubject, combineLatest, filter, firstValueFrom, type Observable } from 'rxjs';
import { assumedServerStates, downstreamActive, firstUpstreamPass, pullMarks, type UpstreamView } from './rxdb-internals.ts';
import { PULL_LIMIT_MAX } from '../schemas/common.ts';
import type { MutationDraft } from '../schemas/mutations.ts';
import type { ApiClient } from './api-client.ts';
import { markQueued, notedIds, whenQueued } from './local-writes.ts';
import {
  appliedVersion,
  enqueue,
  listRefusals,
  peekOverrides,
  pendingCount,
  pendingOps,
  readHistory,
  refusedCount,
  takeOverrides,
  watchOverrides,
} from './outbox.ts';

export interface Checkpoint {
  /** The server version this collection has been pulled up to (docs/sync-protocol.md). */
  version?: number;
  /** Checkpoints of the older, clock-based protocol: read as "pull everything once". */
  since?: string;
  /**
   * The mapping's `listQuery` the version was pulled with. A version reached with another query
   * (an app that asked for less) says nothing of the rows that query left out: read as "pull
   * everything once".
   */
  query?: string;
  /**
   * The history epoch the version was pulled under (sync/history.ts). A version of a history the
   * server has lost (a restored database) says nothing of the rows written since: read as "pull
   * everything once".
   */
  history?: string;
}

/** A named mutation as a mapping makes it (schemas/mutations.ts `mutation`). */
export type OpDraft = MutationDraft;

/** How long a failed pull waits before it is tried again (see `replicate`). */
export const PULL_RETRY_MS = 5_000;

/**
 * Rows per page of a version pull (the server's most, PULL_LIMIT_MAX); the server's cursor (`next`)
 * says when more remain. Each page waits for the one before: a patient's 10,000 readings came in
 * 11 requests of 1,000, now in 3 (bench: firstSync10kMs).
 */
export const PULL_PAGE = PULL_LIMIT_MAX;
/**
 * Documents RxDB takes from one call of the pull handler before it calls it again at once (its
 * `batchSize`): the handler hands over every page it fetched, so a pull that returns this many or
 * more is asked again.
 */
export const PULL_BATCH = 1000;

export interface RestMapping<Doc extends { _id: string }, List = unknown> {
  collection: string;
  /** List GET path, e.g. "/glucose". */
  listPath: string;
  /**
   * Query parameters every list GET of this collection adds, e.g. "include=ended". Changing them
   * makes a device that pulled with others pull everything once (see `Checkpoint.query`).
   */
  listQuery?: string;
  /** The list pages by server version (`?since=<version>&limit=`); otherwise it is pulled whole. */
  versioned: boolean;
  /**
   * Server list response → documents and deleted ids. `List` is the answer's type derived from its
   * schema in schemas/api.ts: the server's serializer lets nothing else through.
   */
  fromList(json: List): { docs: Doc[]; deleted: string[] };
  /** One record as the server sends it (e.g. the `current` of a 409) → the document; default: as is. */
  fromRecord?(json: Record<string, unknown>): Doc | undefined;
  /**
   * A local change → the named mutation(s) that make it on the server (undefined or []: nothing to
   * send). `previous` is the state the server was last known to have: its `version` is the base a
   * change states, and mappings that send differences compare with it.
   */
  toOp(doc: WithDeleted<Doc>, isNew: boolean, previous?: WithDeleted<Doc>): OpDraft | OpDraft[] | undefined;
}

interface ListPage {
  checkpoint?: unknown;
  next?: unknown;
}

interface Fetched<Doc> {
  docs: Doc[];
  deleted: string[];
  version: number | undefined;
}

async function fetchAll<Doc extends { _id: string }>(
  api: ApiClient,
  mapping: RestMapping<Doc>,
  from: number | undefined,
  token?: string,
): Promise<Fetched<Doc>> {
  const ro = { quiet: true, ...(token ? { token } : {}) };
  const extra = mapping.listQuery ? `&${mapping.listQuery}` : '';
  if (!mapping.versioned)
    return {
      ...mapping.fromList(await api.get<unknown>(mapping.listQuery ? `${mapping.listPath}?${mapping.listQuery}` : mapping.listPath, ro)),
      version: undefined,
    };
  const docs: Doc[] = [];
  const deleted: string[] = [];
  let version = from ?? 0;
  for (;;) {
    const json = await api.get<ListPage>(`${mapping.listPath}?since=${version}&limit=${PULL_PAGE}${extra}`, ro);
    const page = mapping.fromList(json);
    docs.push(...page.docs);
    deleted.push(...page.deleted);
    // A cursor that does not move on would loop for ever: it ends the pull instead.
    if (typeof json.next === 'number' && json.next > version) {
      version = json.next;
      continue;
    }
    if (typeof json.checkpoint === 'number' && json.checkpoint > version) version = json.checkpoint;
    break;
  }
  return { docs, deleted, version };
}

/** A first pull begun at login (`beginFirstPulls`): what it fetched, and the writes waiting when it was sent. */
interface FirstPull {
  waiting: string[];
  fetched: Fetched<{ _id: string }>;
}

/** How long a first pull begun at login waits for its replication; one older is asked again. */
const FIRST_PULL_MAX_AGE_MS = 60_000;
const firstPulls = new Map<string, { owner: string; begunAt: number; pull: Promise<FirstPull | undefined> }>();

/**
 * Begins the first pull of every versioned collection as soon as a login has found nothing of this
 * patient on the device (so every pull starts from version 0): the pages come while the local
 * database opens and the replications start, each of which took about as long as the pages did
 * (bench: firstSync10kMs). Nothing is written here: each replication takes the answer as its own
 * first pull (`pullChanges`), with the writes that were waiting when the requests went out counted
 * as waiting. A request that fails is asked again by the replication itself.
 */
export function beginFirstPulls(api: ApiClient, mappings: readonly RestMapping<{ _id: string }>[], owner: string, token: string): void {
  firstPulls.clear();
  for (const mapping of mappings) {
    if (!mapping.versioned) continue;
    const pull = (async () => {
      const waiting = await waitingIds(mapping.collection);
      return { waiting, fetched: await fetchAll(api, mapping, undefined, token) };
    })().catch(() => undefined);
    const begun = { owner, begunAt: Date.now(), pull };
    firstPulls.set(mapping.collection, begun);
    // Not taken in time (the replication never started): its pages are not kept in memory.
    setTimeout(() => {
      if (firstPulls.get(mapping.collection) === begun) firstPulls.delete(mapping.collection);
    }, FIRST_PULL_MAX_AGE_MS);
  }
}

/** Forgets first pulls not yet taken (the session ended, or the device's data went). */
export function dropFirstPulls(): void {
  firstPulls.clear();
}

/** The first pull begun for this collection and patient, once; undefined when none (or too old). */
export function takeFirstPull(collection: string, owner: string): Promise<FirstPull | undefined> | undefined {
  const begun = firstPulls.get(collection);
  firstPulls.delete(collection);
  if (!begun || begun.owner !== owner || Date.now() - begun.begunAt > FIRST_PULL_MAX_AGE_MS) return undefined;
  return begun.pull;
}

/**
 * Pull: every change since the checkpoint, page by page, mapped to RxDB documents; exported for
 * tests. A pull from version 0 takes the pull begun at login instead (`firstPull`), when there is one.
 */
export async function pullChanges<Doc extends { _id: string }>(
  api: ApiClient,
  mapping: RestMapping<Doc>,
  checkpoint: Checkpoint | undefined,
  local?: (ids: string[]) => Promise<Map<string, Doc>>,
  firstPull?: () => Promise<FirstPull | undefined> | undefined,
  everyLocal?: () => Promise<Doc[]>,
): Promise<{ documents: WithDeleted<Doc>[]; checkpoint: Checkpoint | undefined }> {
  // A write waiting now may be sent while the request is out, after the server has answered it:
  // the answer is then older than that write although the outbox is empty by the time it comes.
  const waitingBefore = await waitingIds(mapping.collection);
  // A discarded refusal whose server copy is unknown: this pull asks for everything once.
  const refetch = (await peekOverrides(mapping.collection)).some((o) => o.doc === 'refetch');
  // A checkpoint reached with another list query (an earlier app's) also asks for everything once.
  const sameQuery = (checkpoint?.query ?? '') === (mapping.listQuery ?? '');
  // And one reached in a history the server has since lost (a restored database).
  const epoch = (await readHistory()).epoch;
  const sameHistory = checkpoint?.history === epoch;
  const from = refetch || !sameQuery || !sameHistory ? undefined : checkpoint?.version;
  // Begun earlier, its requests went out before this pull's check above: the writes waiting then count too.
  const early = (from ?? 0) === 0 ? await firstPull?.() : undefined;
  const { docs, deleted, version } = (early?.fetched as Fetched<Doc> | undefined) ?? (await fetchAll(api, mapping, from));
  const waiting = new Set([...(early?.waiting ?? []), ...waitingBefore, ...(await waitingIds(mapping.collection))]);
  const overrides = await takeOverrides(mapping.collection, waiting);
  const fromServer = new Map<string, WithDeleted<Doc>>();
  for (const d of docs) fromServer.set(d._id, { ...d, _deleted: false });
  // A deletion is a bare id until the device's own copy stands in for it (below, with `local`).
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- a deletion marker, replaced by the local copy before it is written
  for (const id of deleted) fromServer.set(id, { _id: id, _deleted: true } as WithDeleted<Doc>);
  // What the patient chose to take from the server (a discarded refusal) goes over the local copy.
  for (const o of overrides) {
    if (o.doc === 'refetch') continue;
    // A 409's `current` is the row in its entity's schema, the one the collection's type is derived from.
    // eslint-disable-next-line no-restricted-syntax -- the server's row of this collection; RxDB validates it against the collection's schema on write
    const doc = o.doc ? (mapping.fromRecord?.(o.doc) ?? (o.doc as unknown as Doc)) : undefined;
    // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- a deletion marker, as above
    fromServer.set(o.docId, doc ? { ...doc, _deleted: false } : ({ _id: o.docId, _deleted: true } as WithDeleted<Doc>));
  }
  const skipped = [...fromServer.values()].filter((d) => waiting.has(d._id));
  let documents = [...fromServer.values()].filter((d) => !waiting.has(d._id));
  // A deletion is written as the device's own copy marked deleted: RxDB stores what it is given,
  // and a bare id fails the collection's schema (and its indexes). Ids this device never had
  // need no deletion at all.
  if (local) {
    const gone = documents.filter((d) => d._deleted).map((d) => d._id);
    const have = gone.length > 0 ? await local(gone) : new Map<string, Doc>();
    documents = documents.flatMap((d) => {
      if (!d._deleted) return [d];
      const mine = have.get(d._id);
      return mine ? [{ ...mine, _deleted: true }] : [];
    });
  }
  // The first pull after the server's history went back (sync/history.ts): what the device holds
  // and the server no longer lists (neither live nor deleted), with no write of it waiting, is not
  // left showing as if the server had it. The patient's own records go to the server again as adds,
  // by their ids (a copy the server has by then is answered as a repeat, never doubled): written on
  // another device, or longer ago than the journal keeps. Never dropped: the device may hold the
  // only copy (the chaos runs lost records when it did). The server's own (a prescription a
  // replaced database no longer lists) leave the device.
  if (checkpoint !== undefined && !sameHistory && everyLocal) {
    const known = new Set([...fromServer.keys(), ...waiting]);
    for (const mine of await everyLocal()) {
      if (known.has(mine._id)) continue;
      const drafts = mapping.toOp({ ...mine, _deleted: false }, true);
      const ops = drafts === undefined ? [] : Array.isArray(drafts) ? drafts : [drafts];
      for (const op of ops) await enqueue({ ...op, collection: mapping.collection, docId: mine._id, madeAt: Date.now() });
      if (ops.length === 0) documents.push({ ...mine, _deleted: true });
    }
  }
  if (version === undefined) return { documents, checkpoint };
  return {
    documents,
    checkpoint: {
      version: heldBack(version, skipped, from, documents.length),
      ...(mapping.listQuery ? { query: mapping.listQuery } : {}),
      ...(epoch ? { history: epoch } : {}),
    },
  };
}

/**
 * The checkpoint after a pull that skipped records with a write waiting: it stays before the
 * oldest of them, so the pull after that write is sent brings the server's copy (and the version
 * the device's next change of it must state). Were it to move past them, the device would keep
 * the version its write was based on, and its own next change of that record would be refused as
 * a conflict with itself (409 on its own earlier edit; found by the randomized fault runs).
 */
/** The server version a document carries: a pulled one has it, the device's own new one not yet. */
export function versionOf(doc: object | undefined): number | undefined {
  return doc && 'version' in doc && typeof doc.version === 'number' ? doc.version : undefined;
}

export function heldBack(version: number, skipped: readonly object[], from: number | undefined, returned: number): number {
  // A full page makes RxDB ask again at once: holding the checkpoint then would ask for ever.
  if (skipped.length === 0 || returned >= PULL_BATCH) return version;
  let v = version;
  for (const d of skipped) {
    const at = versionOf(d);
    v = Math.min(v, at === undefined ? (from ?? 0) : at - 1);
  }
  return Math.max(v, from ?? 0);
}

/** Documents the server must not overwrite yet: writes waiting to be sent, or refused and undecided. */
async function waitingIds(collection: string): Promise<string[]> {
  const ops = [...(await pendingOps()), ...(await listRefusals()).map((r) => r.op)];
  return ops.filter((op) => op.collection === collection).map((op) => op.docId);
}

/**
 * The documents of `collection` this device has queued a write of, or had one applied by the server:
 * they exist there (or will), whatever RxDB remembers. RxDB notes what it pushed only when the push
 * handler returns; a reload while the handler waits (for a pull to settle, say, with the server
 * down) leaves a queued add unnoted, and the document's next state then came as new: a removal
 * was dropped as "nothing to send" and an edit went out as a repeated add, which the server answers
 * as a duplicate without taking the new values.
 */
async function knownToServer(collection: string): Promise<(docId: string) => Promise<boolean>> {
  const queued = new Set((await pendingOps()).filter((op) => op.collection === collection).map((op) => op.docId));
  return async (docId) => queued.has(docId) || (await appliedVersion(`${collection}|${docId}`)) !== undefined;
}

/**
 * Push: local changes → named mutations in the outbox; exported for tests. `asPulled` names the
 * documents whose copy on the device is still exactly what a pull wrote (see `pulledUnnoted`).
 */
export async function pushChanges<Doc extends { _id: string }>(
  mapping: RestMapping<Doc>,
  rows: RxReplicationWriteToMasterRow<Doc>[],
  asPulled?: (ids: string[]) => Promise<Set<string>>,
): Promise<number> {
  let queued = 0;
  let known: ((docId: string) => Promise<boolean>) | undefined;
  // RxDB writes what a pull brought in one step and notes it as the server's state in the next. A
  // reload between the two leaves pulled records looking like the device's own changes: new ones
  // were all sent back as adds (a reload during a patient's first pull sent 123 readings), changed
  // ones as updates based on the version before the pull (refused as conflicts with the server's
  // own state). A record still exactly as pulled has nothing to send.
  const unnoted = asPulled ? await asPulled(rows.map((r) => r.newDocumentState._id)) : new Set<string>();
  for (const row of rows) {
    const doc = row.newDocumentState;
    if (unnoted.has(doc._id)) continue;
    let isNew = row.assumedMasterState === undefined;
    let previous = row.assumedMasterState;
    if (isNew) {
      known ??= await knownToServer(mapping.collection);
      isNew = !(await known(doc._id));
    }
    // One pulled and changed since (no note of that pull either) was pulled at its `version`, later
    // than the state noted: the change is an update based on that version. The device's own new
    // records have no version (the server gives it).
    const pulledAt = versionOf(doc);
    const notedAt = versionOf(previous);
    if (pulledAt !== undefined && (notedAt === undefined || notedAt < pulledAt)) {
      isNew = false;
      // What the server was last known to have: at least this version (a mapping reads only the version of a state it never saw).
      // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- without a noted state, only `_id` and `version` are known
      previous = { ...(previous ?? { _id: doc._id }), version: pulledAt } as WithDeleted<Doc>;
    }
    const drafts = mapping.toOp(doc, isNew, previous);
    for (const op of drafts === undefined ? [] : Array.isArray(drafts) ? drafts : [drafts]) {
      await enqueue({ ...op, collection: mapping.collection, docId: doc._id, madeAt: Date.now() });
      queued++;
    }
  }
  return queued;
}

/** The version the server last had of a document, as the base a change of it states. */
export const baseOf = (previous: { version?: number } | undefined): { baseVersion?: number } =>
  typeof previous?.version === 'number' ? { baseVersion: previous.version } : {};

/**
 * What an edit or removal is made on (`madeOn`): the record as the device held it, in the edit's own
 * fields. The server reads it only when the write goes on no version, sent again after a heal
 * (docs/sync-protocol.md, "What a write sent again was made on"); otherwise it leaves the device
 * only then (openEntry, sync/outbox.ts). None when the device knows only the record's version.
 */
export function madeOnOf<Doc, Fields extends object>(
  previous: Doc | undefined,
  held: (doc: Doc) => boolean,
  fields: (doc: Doc) => Fields,
): { madeOn?: Fields } {
  return previous !== undefined && held(previous) ? { madeOn: fields(previous) } : {};
}

export interface SyncedCollection {
  state: RxReplicationState<unknown, Checkpoint>;
}

/**
 * Starts live replication of one collection. `afterPush` drains the outbox (wired by the sync
 * controller). The identifier includes the patient, so two patients on one browser never share
 * checkpoints.
 */
export function replicate<Doc extends { _id: string }>(opts: {
  collection: RxCollection<Doc>;
  mapping: RestMapping<Doc>;
  api: ApiClient;
  owner: string;
  afterPush: () => void;
}): RxReplicationState<Doc, Checkpoint> {
  const pulls = new BehaviorSubject<PullActivity>({ inflight: 0, failed: false });
  const state: RxReplicationState<Doc, Checkpoint> = replicateRxCollection<Doc, Checkpoint>({
    collection: opts.collection,
    replicationIdentifier: `eddy-${opts.mapping.collection}-${opts.owner}`,
    live: true,
    // How long RxDB waits before trying a failed pull again when the browser still says it is
    // online (the server, not the network, was gone; 'online' events end the wait otherwise).
    // Nothing can cut that wait short, so it bounds how soon the screens are current once the
    // server answers again, a decided conflict among them: 5 s, not RxDB's usual 15. A failing pull
    // is one small request per collection.
    retryTime: PULL_RETRY_MS,
    waitForLeadership: true,
    autoStart: true,
    pull: {
      batchSize: PULL_BATCH,
      handler: async (checkpoint) => {
        pulls.next({ ...pulls.value, inflight: pulls.value.inflight + 1 });
        let failed = true;
        try {
          const pulled = await pullChanges(
            opts.api,
            opts.mapping,
            checkpoint,
            (ids) => localDocs(opts.collection, ids),
            () => takeFirstPull(opts.mapping.collection, opts.owner),
            async () => (await opts.collection.find().exec()).map((d) => d.toMutableJSON(false)),
          );
          failed = false;
          return pulled;
        } finally {
          pulls.next({ inflight: pulls.value.inflight - 1, failed });
        }
      },
    },
    push: {
      batchSize: 50,
      handler: async (rows) => {
        const queued = await pushChanges(opts.mapping, rows, (ids) => pulledUnnoted(state, ids));
        // Every row is in the outbox now (or had nothing to send): a logout may count on the outbox alone for them.
        await markQueued(
          opts.collection.name,
          rows.map((r) => ({ docId: r.newDocumentState._id, state: r.newDocumentState as Record<string, unknown> })),
          async (ids) => localDocs(opts.collection, ids),
        );
        if (queued > 0) {
          opts.afterPush();
          // See the header: a pull that read the outbox before these were queued is written first.
          await pullsWritten(pulls, downstreamActive(state));
        }
        // The outbox owns delivery; RxDB must not retry or report conflicts for these rows.
        return [];
      },
    },
  });
  // A refusal decided for the server's copy is applied by the next pull, which the decision asks
  // for in its own tab; when another tab leads the replication, nothing asked it to pull, and the
  // decision showed only at its next pull, minutes later.
  const unwatch = watchOverrides(() => {
    void peekOverrides(opts.mapping.collection).then(
      (mine) => {
        if (mine.length > 0 && !state.isStopped()) state.reSync();
      },
      () => undefined,
    );
  });
  state.onCancel.push(unwatch);
  // Another tab of this device asks for the server's changes (askLeaderToPull): only the tab that
  // leads pulls, so it pulls for them. This tab's own asks are not for it: it pulls by itself
  // (at start, and by the controller's reSync), and would pull twice.
  const asked = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(pullChannel(opts.owner));
  asked?.addEventListener('message', (event: MessageEvent<{ from?: string }>) => {
    if (event.data?.from !== THIS_TAB && !state.isStopped()) state.reSync();
  });
  state.onCancel.push(() => asked?.close());
  // A save that changed nothing (a day already chosen, say) leaves RxDB's push side nothing to hand
  // over: its note goes once the state the server was last known to have is the current one.
  const name = opts.collection.name;
  const settle = async () => {
    const ids = notedIds(name);
    if (ids.length === 0) return;
    const known = await assumedServerStates(state, ids);
    if (known.size === 0) return;
    await markQueued(
      name,
      [...known].map(([docId, docState]) => ({ docId, state: docState })),
      (some) => localDocs(opts.collection, some),
    );
  };
  unchangedSettlers.add(settle);
  state.onCancel.push(() => unchangedSettlers.delete(settle));
  return state;
}

const unchangedSettlers = new Set<() => Promise<void>>();
/** Drops the notes of local saves that left nothing to send, in every replication running here. */
export async function settleUnchangedNotes(): Promise<void> {
  await Promise.all([...unchangedSettlers].map((settle) => settle()));
}

const pullChannel = (owner: string) => `eddy-pull-${owner}`;
/** Who asks: a tab's own replications ignore its asks. */
const THIS_TAB = crypto.randomUUID();

/**
 * Asks the tab that leads this device's replication to pull now. Only that tab pulls
 * (waitForLeadership): a tab that was just loaded, or that syncs, while another tab leads, pulled
 * nothing, so a reload showed nothing new, not even a conflict decided on another device.
 * `from` names the asking tab (a test stands in for another).
 */
export function askLeaderToPull(owner: string, from: string = THIS_TAB): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(pullChannel(owner));
  channel.postMessage({ from });
  channel.close();
}

/**
 * Of these documents, those whose copy on the device is exactly what a pull wrote. RxDB marks a
 * pulled write with this replication's hash and the revision it made (`_meta.o`), and any later
 * change moves the revision on; its pull reads that mark to tell a pulled record whose note was lost
 * from a local change, its push does not, so this handler does. RxDB's storage drops the mark when
 * the pull inserts the record (17.6: an insert's `_meta` is set anew): a first revision that carries
 * a server `version` is then the pulled one, since the device's own new records have none.
 */
async function pulledUnnoted<Doc extends { _id: string }>(state: RxReplicationState<Doc, Checkpoint>, ids: string[]): Promise<Set<string>> {
  const marks = await pullMarks(state, ids);
  return new Set(marks.filter((m) => m.pulled || (m.firstRevision && versionOf(m.doc) !== undefined)).map((m) => m.doc._id));
}

/** The device's copies of these documents, as plain data. */
async function localDocs<Doc extends { _id: string }>(collection: RxCollection<Doc>, ids: string[]): Promise<Map<string, Doc>> {
  const found = await collection.findByIds(ids).exec();
  const out = new Map<string, Doc>();
  for (const [id, doc] of found) out.set(id, doc.toMutableJSON(false));
  return out;
}

/** The pull handler's calls: how many are running, and whether the last one to end failed. */
interface PullActivity {
  inflight: number;
  failed: boolean;
}

/**
 * Resolves when no pull's answer is still to come or to be written: RxDB's downstream is idle, or
 * the last pull failed and none is running (RxDB then waits to try again, with nothing to write;
 * the next try reads the outbox afresh). Pulls never wait for a push (RxDB holds new ones back
 * while a push runs, and only conflicts, which these handlers never report, make a pull wait), so
 * this cannot deadlock; it is bounded by the API client's request timeout.
 */
function pullsWritten(pulls: Observable<PullActivity>, downstreamActive: Observable<boolean> | undefined): Promise<void> {
  if (!downstreamActive) return Promise.resolve();
  return firstValueFrom(combineLatest([pulls, downstreamActive]).pipe(filter(([p, active]) => !active || (p.inflight === 0 && p.failed)))).then(
    () => undefined,
  );
}

/**
 * Whether RxDB's push side of this replication has gone once through every local change made before
 * it started (its first upstream pass: changes saved before a reload are queued then), waiting at most
 * `timeoutMs`. A replication that never started in this tab (another tab leads) has nothing to go
 * through here: true.
 */
export async function upstreamCaughtUp(state: UpstreamView, timeoutMs: number): Promise<boolean> {
  const done = firstUpstreamPass(state);
  if (!state.wasStarted || !done) return !state.wasStarted;
  if (done.getValue()) return true;
  return Promise.race([
    firstValueFrom(done.pipe(filter(Boolean))).then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs)),
  ]);
}

/**
 * A change saved on the device reaches the outbox a moment later (RxDB's push side; after a reload,
 * its first pass). A logout tapped in that moment waits for it, up to `timeoutMs`; what has still
 * not arrived by then is counted as unsent (issue 44: before, it was not counted, and a logout could
 * wipe it unasked). Answers how many documents' changes are still on their way.
 */
export interface SavesOnTheirWay {
  started: Promise<unknown>;
  replications: () => readonly (UpstreamView & { isStopped(): boolean })[];
  leaderElsewhere: () => Promise<boolean>;
}
export async function changesOnTheirWay(o: SavesOnTheirWay & { timeoutMs: number }): Promise<number> {
  const deadline = Date.now() + o.timeoutMs;
  const left = () => Math.max(0, deadline - Date.now());
  // A save tapped just before has begun by the next turn of the page (its first step notes it).
  await new Promise((resolve) => setTimeout(resolve, 0));
  // Logged in a moment ago: the replications may still be starting.
  await Promise.race([o.started, new Promise((resolve) => setTimeout(resolve, left()))]);
  if (await o.leaderElsewhere()) return 0;
  const caughtUp = await Promise.all(
    o
      .replications()
      .filter((r) => !r.isStopped())
      .map((r) => upstreamCaughtUp(r, left())),
  );
  await settleUnchangedNotes();
  let noted = await whenQueued(left());
  if (noted > 0) {
    await settleUnchangedNotes();
    noted = await whenQueued(0);
  }
  return Math.max(noted, caughtUp.filter((done) => !done).length);
}

/** How long logging out waits for unsent entries to be sent before asking what to do with them. */
const LOGOUT_SEND_TIMEOUT_MS = 10_000;
/** How long a logout waits for changes saved a moment ago to reach the outbox before counting them as unsent. */
const LOGOUT_QUEUE_WAIT_MS = 5_000;

/**
 * Before a logout (src/lib/runtime.ts prepareLogout): the saves on their way reach the outbox (or
 * are counted), what is unsent is tried once more when online, and the answer is how many entries
 * are still not on the server: unsent, refused, or still on their way.
 */
export async function beforeLogout(o: { send: () => Promise<void>; online: () => boolean; saves: SavesOnTheirWay | undefined }): Promise<number> {
  const onTheirWay = o.saves ? await changesOnTheirWay({ ...o.saves, timeoutMs: LOGOUT_QUEUE_WAIT_MS }) : 0;
  if ((await pendingCount()) > 0 && o.online()) {
    await Promise.race([o.send(), new Promise((resolve) => setTimeout(resolve, LOGOUT_SEND_TIMEOUT_MS))]);
  }
  const [pending, refused] = await Promise.all([pendingCount(), refusedCount()]);
  return pending + refused + onTheirWay;
}
