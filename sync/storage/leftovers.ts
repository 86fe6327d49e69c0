// What removing an RxDB database on Dexie leaves in IndexedDB, deleted: shared by the patient's
// database (database.ts) and the staff's offline copy (staff-cache.ts).
/**
 * Deletes the IndexedDB databases a removal leaves behind: the Dexie storage's, emptied, and the
 * message store RxDB's cross-tab channel uses where the browser has no native BroadcastChannel.
 */
export async function deleteLeftoverIndexedDbs(name: string): Promise<void> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return;
  const ours = (dbName: string) => dbName.startsWith(`rxdb-dexie-${name}--`) || (dbName.startsWith('pubkey.broadcast-channel-') && dbName.endsWith(`|${name}`));
  const found = (await indexedDB.databases()).flatMap((info) => (info.name && ours(info.name) ? [info.name] : []));
  await Promise.all(
    found.map(
      (dbName) =>
        new Promise<void>((resolve, reject) => {
          const req = indexedDB.deleteDatabase(dbName);
          req.onsuccess = () => resolve();
          req.onerror = () => reject(req.error ?? new Error(`could not delete ${dbName}`));
          // Another tab still holds a connection: the deletion completes when it closes, and the
          // rows are already gone, so logout does not wait for it.
          req.onblocked = () => resolve();
        }),
    ),
  );
}
