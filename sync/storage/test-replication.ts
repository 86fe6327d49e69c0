// For the storage tests: a one-shot or live replication of a collection whose server hands out
// `served()` on the first pull and records what is pushed, with the state the device assumed.
import type { RxCollection } from 'rxdb';
import { replicateRxCollection } from 'rxdb/plugins/replication';

export async function replicateForTest<T>(collection: RxCollection<T>, replicationIdentifier: string, served: () => T[], live: boolean) {
  const pushed: { doc: T; assumed?: T }[] = [];
  const replication = replicateRxCollection<T, number>({
    collection,
    replicationIdentifier,
    live,
    pull: {
      handler: (checkpoint) =>
        Promise.resolve(checkpoint ? { documents: [], checkpoint } : { documents: served().map((d) => ({ ...d, _deleted: false })), checkpoint: 1 }),
    },
    push: {
      handler: (rows) => {
        pushed.push(...rows.map((r) => ({ doc: r.newDocumentState, ...(r.assumedMasterState ? { assumed: r.assumedMasterState } : {}) })));
        return Promise.resolve([]);
      },
    },
  });
  await replication.awaitInitialReplication();
  return { replication, pushed };
}
