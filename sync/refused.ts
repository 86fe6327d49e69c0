// Adds the server refused for good (e.g. a second report of one symptom on one day, made on two
// devices before either synced). The device cannot keep its copy: the server will never have it.
// The next pull hands such documents to RxDB as deleted by the server, so the local copy disappears
// the way any server-side deletion does, without another call being made for it.
const refused = new Map<string, Set<string>>();

export function markRefused(collection: string, docId: string): void {
  let ids = refused.get(collection);
  if (!ids) refused.set(collection, (ids = new Set()));
  ids.add(docId);
}

/** The refused ids of a collection; they are handed out once. */
export function takeRefused(collection: string): string[] {
  const ids = refused.get(collection);
  refused.delete(collection);
  return ids ? [...ids] : [];
}
