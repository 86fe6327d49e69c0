// One page of a pull by version (docs/sync-protocol.md). Repositories fetch `limit + 1` rows ordered
// by version: the extra row only says whether another page follows.

export interface VersionPage<Row> {
  rows: Row[];
  /** The version to ask from next time: the last row's, or `since` when nothing changed. */
  checkpoint: number;
  /** Present when more rows remain: the version to ask from for the next page (= checkpoint). */
  next?: number;
}

export function versionPage<Row extends { version: number }>(fetched: Row[], since: number, limit: number): VersionPage<Row> {
  const rows = fetched.slice(0, limit);
  const checkpoint = rows.at(-1)?.version ?? since;
  return fetched.length > limit ? { rows, checkpoint, next: checkpoint } : { rows, checkpoint };
}
