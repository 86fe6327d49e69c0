// The full lists of a patient's records (GET /api/glucose and the like without ?since=), kept as the
// bytes last sent, so that asking again for a list nothing has changed costs one small query instead
// of writing thousands of rows as JSON again (the staff review of a patient with years of readings,
// several staff and devices looking at the same patient).
//
// Each entry carries the stamp of what it was made from (the patient's row count and highest version
// in that table, and the patient's version counter: synced-records.ts, listStamp). A request reads
// the stamp first and uses the entry only when it is the same; any insert, update, soft or hard
// delete of the patient's rows changes the stamp, and it never comes back to an earlier value (the
// counter only grows, and a hard delete changes the count). The stamp is read before the list is made, so an entry is never older than its stamp (a
// write that commits in between makes it newer, which a later reader of that stamp may see: never
// older than what it asked). Each server keeps its own cache: several servers behind a load balancer
// each check the stamp in the database, so none can answer from an outdated entry.
//
// Bounded by bytes (LIST_CACHE_MB): the least recently used entries go first.

export class ListCache {
  readonly #maxBytes: number;
  #bytes = 0;
  /** Map order is the use order: the first entry is the least recently used. */
  readonly #entries = new Map<string, { stamp: string; body: Buffer }>();

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The list kept for `key` if it was made at `stamp` (an entry of another stamp stays until replaced). */
  get(key: string, stamp: string): Buffer | undefined {
    const entry = this.#entries.get(key);
    if (entry?.stamp !== stamp) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.body;
  }

  set(key: string, stamp: string, body: Buffer): void {
    const old = this.#entries.get(key);
    if (old) this.#drop(key, old.body);
    // A list larger than a quarter of the cache would push out most of the others: not kept.
    if (body.length > this.#maxBytes / 4) return;
    this.#entries.set(key, { stamp, body });
    this.#bytes += body.length;
    for (const [k, e] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#drop(k, e.body);
    }
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  #drop(key: string, body: Buffer): void {
    this.#entries.delete(key);
    this.#bytes -= body.length;
  }
}
