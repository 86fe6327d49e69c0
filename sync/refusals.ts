// What the patient can do with a write the server refused (docs/sync-protocol.md): the refused
// list is grouped by record (a refused change and the changes made on top of it), and each group
// is retried as it is, kept on the server's current version ("keep mine", 409 only), or discarded,
// which makes the device's copy the server's again through the next pull. Nothing here talks to
// the server: it only moves entries between the refused list, the outbox and the overrides.
import { addOverride, deleteRefusals, enqueue, listRefusals, type Override, type StoredRefusal } from './outbox.ts';

export interface RefusedRecord {
  /** `<collection>|<docId>` */
  key: string;
  /** The first refused change; `held` were made after it and wait with it. */
  refusal: StoredRefusal;
  held: StoredRefusal[];
  /** A 409 with the server's current copy and a change that states its base: "keep mine" applies. */
  canKeepMine: boolean;
}

const keyOf = (r: StoredRefusal) => `${r.op.collection}|${r.op.docId}`;

export async function refusedRecords(): Promise<RefusedRecord[]> {
  const groups = new Map<string, StoredRefusal[]>();
  for (const r of await listRefusals()) {
    const list = groups.get(keyOf(r)) ?? [];
    list.push(r);
    groups.set(keyOf(r), list);
  }
  return [...groups.entries()].map(([key, list]) => {
    const refusal = list.find((r) => r.status !== 0) ?? (list[0] as StoredRefusal);
    const current = refusal.current as { version?: unknown } | null | undefined;
    return {
      key,
      refusal,
      held: list.filter((r) => r !== refusal),
      canKeepMine: refusal.status === 409 && refusal.op.versioned === true && typeof current?.version === 'number',
    };
  });
}

async function take(key: string): Promise<StoredRefusal[]> {
  return (await listRefusals()).filter((r) => keyOf(r) === key);
}

/** Sends the group again as it was (same mutation ids: the server applies each at most once). */
export async function retryRefused(key: string): Promise<void> {
  const list = await take(key);
  for (const r of list) await enqueue(r.op);
  await deleteRefusals(list.map((r) => r.id));
}

/** 409: the patient's change wins, made on the server's current version. */
export async function keepMine(key: string): Promise<void> {
  const list = await take(key);
  const first = list.find((r) => r.status === 409);
  const version = (first?.current as { version?: unknown } | null | undefined)?.version;
  if (!first || typeof version !== 'number') throw new Error('only a conflict with the server’s current copy can be kept');
  for (const r of list) {
    // The first change is based on what the server has now; the ones after it are rebased when it is applied.
    const op = r === first ? { ...r.op, body: { ...r.op.body, baseVersion: version } } : r.op;
    await enqueue(op);
  }
  await deleteRefusals(list.map((r) => r.id));
}

/** The server's copy wins: the device's copy of the record becomes the server's at the next pull. */
export async function discardRefused(key: string): Promise<void> {
  const list = await take(key);
  const first = list.find((r) => r.status !== 0) ?? list[0];
  if (!first) return;
  await addOverride(
    overrideFor(first),
    list.map((r) => r.id),
  );
}

export function overrideFor(r: StoredRefusal): Override {
  const base = { collection: r.op.collection, docId: r.op.docId };
  // A refused add never reached the server; a 409 on an add (a dose already recorded) names another record.
  if (r.op.kind === 'add' && r.op.collection !== 'profile') return { ...base, doc: null };
  if (r.status === 409 && 'current' in r) {
    const current = r.current;
    return { ...base, doc: current && typeof current === 'object' ? (current as Record<string, unknown>) : null };
  }
  if (r.status === 404 || r.status === 410) return { ...base, doc: null };
  return { ...base, doc: 'refetch' };
}

/**
 * Refusals that need no decision: the server already holds what the patient meant (the same dose
 * recorded on another device, the same symptom reported today). They are discarded, and their
 * messages returned so the patient is told.
 */
export async function settleAutomatically(): Promise<string[]> {
  const messages: string[] = [];
  for (const record of await refusedRecords()) {
    const r = record.refusal;
    const sameIntent = r.status === 409 && r.op.kind === 'add' && (r.code === 'dose-already-recorded' || r.op.collection === 'symptoms');
    if (!sameIntent || record.held.length > 0) continue;
    await discardRefused(record.key);
    messages.push(r.message);
  }
  return messages;
}
