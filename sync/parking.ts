// One device, two patients (a shared ward tablet): when patient A's session ended with a 401, A's
// unsent entries stay sealed on the device for A's next login. If patient B logs in first, A's
// entries and refusals are set aside, still sealed under A's key, which is kept under a new id;
// B never sees or sends them. When A logs in again they go back into the outbox and are sent.
// After PARK_MAX_MS they are deleted, and A is told at their next login how many were lost.
import { deleteParkedKey, encryptJson, findDataKey, findParkedKey, getDataKey, parkDataKey } from './storage/crypto.ts';
import { addRefusal, clearJournal, enqueue, getOwner, openSealed as open, outboxDatabase, type OutboxOp, type Refusal } from './outbox.ts';

export const PARK_MAX_MS = 30 * 24 * 3600_000;

/**
 * Before `hospNo` logs in: keeps the local data when it is theirs (a lock after a 401), sets aside
 * the unsent entries of another patient, then leaves the wiping to `wipe`. Returns whether the
 * local data was kept.
 */
export async function prepareForOwner(hospNo: string, wipe: () => Promise<void>): Promise<'kept' | 'wiped'> {
  const owner = await getOwner().catch(() => undefined);
  if (owner === hospNo) return 'kept';
  if (owner !== undefined) await park(owner);
  // The writes the last patient's server acknowledged are theirs to send again, not this one's.
  await clearJournal();
  await wipe();
  return 'wiped';
}

async function park(owner: string): Promise<void> {
  const db = outboxDatabase();
  const [entries, refused] = await Promise.all([db.entries.orderBy('seq').toArray(), db.refused.orderBy('id').toArray()]);
  if (entries.length + refused.length === 0) return;
  const key = await findDataKey();
  if (!key) return;
  const sealedOwner = await encryptJson(key, { hospNo: owner }, 'owner');
  const keyId = await parkDataKey();
  if (!keyId) return;
  await db.transaction('rw', [db.parked, db.entries, db.refused], async () => {
    await db.parked.add({
      keyId,
      sealedOwner,
      entries: entries.map((e) => e.sealed),
      refused: refused.map((r) => r.sealed),
      count: entries.length + refused.length,
      parkedAt: Date.now(),
    });
    await db.entries.clear();
    await db.refused.clear();
  });
}

export interface Unparked {
  /** Entries put back into the outbox (and refusals back into the refused list). */
  restored: number;
  /** Entries that waited longer than PARK_MAX_MS and were deleted. */
  expired: number;
  /** When the oldest expired entries were set aside. */
  expiredSince?: number;
}

/**
 * After `hospNo` logged in (with a fresh or their own data key): brings back what was set aside for
 * them, and deletes what waited too long. Entries of others older than PARK_MAX_MS are deleted too,
 * leaving only a count for their owner's next login.
 */
export async function unparkFor(hospNo: string, now = Date.now()): Promise<Unparked> {
  const db = outboxDatabase();
  const out: Unparked = { restored: 0, expired: 0 };
  for (const row of await db.parked.toArray()) {
    const key = await findParkedKey(row.keyId);
    const owner = key ? (await open<{ hospNo: string }>(key, row.sealedOwner, 'owner'))?.hospNo : undefined;
    const expired = now - row.parkedAt > PARK_MAX_MS;
    if (!key || owner === undefined) {
      await db.parked.delete(row.id);
      continue;
    }
    if (owner !== hospNo) {
      if (expired && row.entries.length + row.refused.length > 0) await db.parked.update(row.id, { entries: [], refused: [] });
      continue;
    }
    if (expired) {
      out.expired += row.count;
      out.expiredSince = Math.min(out.expiredSince ?? row.parkedAt, row.parkedAt);
    } else {
      const current = await getDataKey();
      for (const sealed of row.entries) {
        const op = await open<OutboxOp>(key, sealed, 'outbox');
        if (op) await enqueue(op);
      }
      for (const sealed of row.refused) {
        const r = await open<Refusal>(key, sealed, 'refusal');
        if (r) await addRefusal(current, r);
      }
      out.restored += row.count;
    }
    await db.parked.delete(row.id);
    await deleteParkedKey(row.keyId);
  }
  return out;
}
