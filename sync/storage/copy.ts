import { uuidv7 } from '../ids.ts';

/**
 * A copy of a deleted document for "Undo": a new id, because the deletion may already be on its way
 * to the server, and no server timestamp or version, because the copy is a new record there (a
 * record with a version is taken for one pulled from the server: sync/replication.ts).
 */
export function copyForUndo<T extends { _id: string; updatedAt?: string; version?: number }>(doc: T): T {
  const copy: T = { ...doc, _id: uuidv7() };
  delete copy.updatedAt;
  delete copy.version;
  return copy;
}
