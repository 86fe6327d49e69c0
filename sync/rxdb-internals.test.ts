import { randomUUID } from 'node:crypto';
import { createRxDatabase, type RxCollection, type RxDatabase, type RxJsonSchema } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { firstValueFrom, filter } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { assumedServerStates, downstreamActive, firstUpstreamPass, moveRxdbClockPast, pullMarks, writeTimeOf } from './rxdb-internals.ts';

// The contract of sync/rxdb-internals.ts: what the sync reads below RxDB's public API, checked on a
// real replication (RxDB's own, with a server kept in memory). An upgrade of RxDB starts here: if
// any of these fails, the sync's reading of RxDB's internals must change with it.

interface Note {
  _id: string;
  text: string;
  version?: number;
}
const schema: RxJsonSchema<Note> = {
  version: 0,
  primaryKey: '_id',
  type: 'object',
  properties: { _id: { type: 'string', maxLength: 64 }, text: { type: 'string' }, version: { type: 'number' } },
  required: ['_id', 'text'],
};
type Checkpoint = { at: number };

function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what}: undefined`);
  return value;
}

let db: RxDatabase<{ notes: RxCollection<Note> }> | undefined;
let replication: RxReplicationState<Note, Checkpoint> | undefined;
afterEach(async () => {
  await replication?.cancel();
  replication = undefined;
  await db?.close();
  db = undefined;
});

/** A collection replicated with a server of `server` (pulled whole each time) that takes every push. */
async function start(server: Note[], pushed: Note[][] = []) {
  db = await createRxDatabase<{ notes: RxCollection<Note> }>({ name: `internals-${randomUUID()}`, storage: getRxStorageMemory() });
  await db.addCollections({ notes: { schema } });
  const notes = db.notes;
  const state = replicateRxCollection<Note, Checkpoint>({
    collection: notes,
    replicationIdentifier: 'internals-contract',
    live: true,
    pull: {
      handler: async (checkpoint) => {
        const after = checkpoint?.at ?? 0;
        const documents = server.filter((d) => (d.version ?? 0) > after).map((d) => ({ ...d, _deleted: false }));
        return { documents, checkpoint: { at: Math.max(after, ...server.map((d) => d.version ?? 0)) } };
      },
    },
    push: {
      handler: async (rows) => {
        pushed.push(rows.map((r) => r.newDocumentState));
        return [];
      },
    },
  });
  replication = state;
  return { notes, state };
}

describe('RxDB internals the sync reads (contract)', () => {
  it('before a replication starts, each reader answers "nothing yet" rather than failing', async () => {
    const state = replicateRxCollection<Note, Checkpoint>({
      collection: (await start([])).notes,
      replicationIdentifier: 'not-started',
      autoStart: false,
      pull: { handler: async () => ({ documents: [], checkpoint: { at: 0 } }) },
    });
    expect(downstreamActive(state)).toBeUndefined();
    expect(firstUpstreamPass(state)).toBeUndefined();
    expect(await assumedServerStates(state, ['a'])).toEqual(new Map());
    expect(await pullMarks(state, ['a'])).toEqual([]);
    await state.cancel();
  });

  it('the pull side says when it is busy, and what it took the server to have', async () => {
    const server: Note[] = [{ _id: 'a', text: 'from the server', version: 1 }];
    const { state } = await start(server);
    await state.awaitInitialReplication();
    await state.awaitInSync();
    const active = downstreamActive(state);
    expect(active).toBeDefined();
    expect(await firstValueFrom(defined(active, 'downstreamActive').pipe(filter((busy) => !busy)))).toBe(false);
    const known = await assumedServerStates(state, ['a', 'unknown']);
    expect([...known.keys()]).toEqual(['a']);
    expect(known.get('a')).toMatchObject({ _id: 'a', text: 'from the server', version: 1 });
  });

  it('marks what a pull wrote: a pulled insert is a first revision, a pulled update carries the mark, a local edit neither', async () => {
    const server: Note[] = [{ _id: 'a', text: 'v1', version: 1 }];
    const { notes, state } = await start(server);
    await state.awaitInitialReplication();
    await state.awaitInSync();
    // A pulled insert: RxDB's storage sets a new document's `_meta` anew, so the mark may be gone;
    // it is the first revision.
    let [mark] = await pullMarks(state, ['a']);
    expect(mark?.firstRevision).toBe(true);
    expect(mark?.doc).toMatchObject({ _id: 'a', text: 'v1', version: 1 });

    // A pulled update: the copy is what the pull wrote.
    server[0] = { _id: 'a', text: 'v2', version: 2 };
    state.reSync();
    await state.awaitInSync();
    await expect.poll(async () => (await notes.findOne('a').exec())?.text).toBe('v2');
    [mark] = await pullMarks(state, ['a']);
    expect(mark).toMatchObject({ pulled: true, firstRevision: false });

    // A local edit after it moves the revision on: not what the pull wrote.
    await (await notes.findOne('a').exec())?.incrementalPatch({ text: 'mine' });
    [mark] = await pullMarks(state, ['a']);
    expect(mark).toMatchObject({ pulled: false, firstRevision: false });

    // A record made on the device: a first revision with no mark.
    await notes.insert({ _id: 'b', text: 'new here' });
    const [made] = await pullMarks(state, ['b']);
    expect(made).toMatchObject({ pulled: false, firstRevision: true });
  });

  it('the push side says when it has gone once through the changes saved before it started', async () => {
    const pushed: Note[][] = [];
    const { notes, state } = await start([], pushed);
    await notes.insert({ _id: 'c', text: 'saved first' });
    const pass = firstUpstreamPass(state);
    await state.awaitInitialReplication();
    const done = defined(pass ?? firstUpstreamPass(state), 'firstUpstreamPass');
    await firstValueFrom(done.pipe(filter(Boolean)));
    expect(done.getValue()).toBe(true);
    expect(pushed.flat().map((d) => d._id)).toContain('c');
  });

  it('a change carries its write time, and RxDB’s clock can be moved past a time it has not reached', async () => {
    const { notes } = await start([]);
    const times: number[] = [];
    const sub = notes.$.subscribe((e) => {
      const t = writeTimeOf(e.documentData);
      if (t !== undefined) times.push(t);
    });
    const before = Date.now();
    await notes.insert({ _id: 'd', text: 'now' });
    expect(times.at(-1)).toBeGreaterThanOrEqual(before);
    expect(writeTimeOf({ _meta: {} })).toBeUndefined();
    expect(writeTimeOf(undefined)).toBeUndefined();

    const ahead = Date.now() + 60 * 60_000;
    moveRxdbClockPast(ahead);
    await notes.insert({ _id: 'e', text: 'after the move' });
    expect(times.at(-1)).toBeGreaterThanOrEqual(ahead);
    sub.unsubscribe();
  });
});
