import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { Medicine } from '../schemas/medicine.ts';
import { openEddyDatabase, type EddyDatabase } from './storage/database.ts';
import type { ApiClient } from './api-client.ts';
import { destroyDataKey } from './storage/crypto.ts';
import { medicineMapping } from './medicine-sync.ts';
import { clearOutbox } from './outbox.ts';
import { replicate, type RestMapping } from './replication.ts';

// The device keeps every prescription, ended ones too, for its report. A device that pulled with
// the earlier mapping (active medicines only, ended ones removed as deletions) holds a checkpoint
// past the ended prescriptions' versions: after the update its next pull starts from version 0
// once, through the real replication and the encrypted database, and from its checkpoint after that.
let db: EddyDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
  await clearOutbox();
  await destroyDataKey();
});

const active: Medicine & { version: number } = {
  _id: randomUUID(),
  prescrNo: 'RX-1',
  name: 'Metformin',
  dose: '1-0-1',
  startDate: '2026-01-01',
  endDate: null,
  version: 4,
};
const ended: Medicine & { version: number } = {
  _id: randomUUID(),
  prescrNo: 'RX-2',
  name: 'Sitagliptin',
  dose: '1-0-0',
  startDate: '2026-01-01',
  endDate: '2026-02-01',
  version: 6,
};

/** The server as it answers: every prescription with `include=ended`, else the active ones and the ended ids as deleted. */
function server() {
  const asked: string[] = [];
  const api = {
    get: (path: string) => {
      asked.push(path);
      const since = Number(/since=(\d+)/.exec(path)?.[1] ?? 0);
      const rows = [active, ended].filter((m) => m.version > since);
      const checkpoint = Math.max(since, active.version, ended.version);
      if (path.includes('include=ended')) return Promise.resolve({ medicines: rows, deleted: [], checkpoint });
      return Promise.resolve({ medicines: rows.filter((m) => m.endDate === null), deleted: [ended._id], checkpoint });
    },
  } as unknown as ApiClient;
  return { api, asked };
}

async function pullOnce(opened: EddyDatabase, api: ApiClient, mapping: RestMapping<Medicine>) {
  const replication = replicate({ collection: opened.medicines, mapping, api, owner: '100001', afterPush: () => undefined });
  const errors: unknown[] = [];
  replication.error$.subscribe((e) => errors.push(e));
  await replication.awaitInitialReplication();
  await replication.awaitInSync();
  await replication.cancel();
  expect(errors).toEqual([]);
}

const held = async (opened: EddyDatabase) => (await opened.medicines.find().exec()).map((d) => d.prescrNo).sort();

describe('the medicines collection', () => {
  it('holds ended prescriptions, and an earlier device pulls them once after the update', async () => {
    db = await openEddyDatabase({ name: `medicines-${randomUUID()}`, storage: getRxStorageMemory() });
    const { api, asked } = server();
    // The earlier app: the same collection and replication, without `include=ended`.
    const { listQuery, ...earlier } = medicineMapping;
    expect(listQuery).toBe('include=ended');
    await pullOnce(db, api, earlier);
    await pullOnce(db, api, earlier);
    // Its checkpoint is kept across starts: the second start asked from it.
    expect(asked).toEqual(['/users/medicines?since=0&limit=5000', '/users/medicines?since=6&limit=5000']);
    expect(await held(db)).toEqual(['RX-1']);

    // Updated: its checkpoint (version 6) was reached without the ended ones, so it pulls from 0.
    await pullOnce(db, api, medicineMapping);
    expect(asked.at(-1)).toBe('/users/medicines?since=0&limit=5000&include=ended');
    expect(await held(db)).toEqual(['RX-1', 'RX-2']);
    expect((await db.medicines.findOne(ended._id).exec())?.endDate).toBe('2026-02-01');

    // Once: the next start pulls from its checkpoint, and the ended prescription stays.
    await pullOnce(db, api, medicineMapping);
    expect(asked.at(-1)).toBe('/users/medicines?since=6&limit=5000&include=ended');
    expect(await held(db)).toEqual(['RX-1', 'RX-2']);
  });
});
