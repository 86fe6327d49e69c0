import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import { afterAll, describe, expect, it } from 'vitest';
import { destroyEddyDatabase, openEddyDatabase } from './database.ts';

// A restart must resume pulling from the stored checkpoint: a ward tablet that downloaded a
// patient's whole history once must not download it again at every start.
describe('replication checkpoints in the encrypted database', () => {
  afterAll(() => destroyEddyDatabase({ name: 'eddy-checkpoint' }));

  it('are kept across a restart', async () => {
    const seen: unknown[] = [];
    const start = async () => {
      const db = await openEddyDatabase({ name: 'eddy-checkpoint' });
      const state = replicateRxCollection({
        collection: db.glucose,
        replicationIdentifier: 'eddy-glucose-test',
        live: false,
        pull: {
          batchSize: 10,
          handler: async (checkpoint: { since: string } | undefined) => {
            seen.push(checkpoint);
            if (checkpoint) return { documents: [], checkpoint };
            const doc = {
              _id: randomUUID(),
              type: 'Fasting' as const,
              value: 100,
              recordedAt: new Date().toISOString(),
              updatedAt: '2026-11-23T10:00:00.000Z',
              _deleted: false,
            };
            return { documents: [doc], checkpoint: { since: doc.updatedAt } };
          },
        },
      });
      await state.awaitInitialReplication();
      await state.cancel();
      await db.close();
    };
    await start();
    await start();
    expect(seen[0]).toBeUndefined();
    expect(seen.at(-1)).toEqual({ since: '2026-11-23T10:00:00.000Z' });
  });
});
