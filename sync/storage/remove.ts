// Removing a record the patient chose to delete. RxDB's `remove()` writes the deletion on the
// revision it read; when a pull writes a newer copy of the record in between (the server's answer
// to the edit just made, say), the write is refused as a conflict and the record stays, with no
// word to the patient (a reading deleted right after it was edited stayed on the screen). `incrementalRemove()` reads the record again and retries.
import type { RxCollection } from 'rxdb';

/** Deletes the record `id` of `collection`; false when it was already gone. */
export async function removeRecord<Doc>(collection: RxCollection<Doc>, id: string): Promise<boolean> {
  return (await collection.findOne(id).incrementalRemove()) !== null;
}
