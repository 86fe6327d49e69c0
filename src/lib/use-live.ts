// How screens read local data: the database once it is open, and reactive queries on it. RxDB
// re-emits a query whenever a matching document changes (a local write, a pull, another tab), so a
// screen never refreshes by hand and shows the same thing offline and online.
import { useEffect, useState, type DependencyList } from 'react';
import type { RxDocument, RxQuery } from 'rxdb';
import { log } from '../../sync/log.ts';
import { markScreenShown } from './first-screen.ts';
import { useRuntime } from './runtime-context.tsx';
import type { EddyDatabase } from '../../sync/storage/database.ts';

/** The patient's local database, or undefined while it opens (RxDB loads after login). */
export function useDatabase(): EddyDatabase | undefined {
  const runtime = useRuntime();
  const [db, setDb] = useState<EddyDatabase | undefined>();
  useEffect(() => {
    let live = true;
    runtime.openDatabase().then(
      (opened) => live && setDb(opened),
      (err: unknown) => log.error('could not open the local database', err),
    );
    return () => {
      live = false;
    };
  }, [runtime]);
  return db;
}

type AnyQuery<Doc> = RxQuery<Doc, RxDocument<Doc>[]>;

/**
 * The plain documents a query finds, kept current; undefined until the first result. `build` runs
 * again when `deps` change (e.g. a chosen period), never on every render.
 */
export function useLiveDocs<Doc>(db: EddyDatabase | undefined, build: (db: EddyDatabase) => AnyQuery<Doc>, deps: DependencyList): Doc[] | undefined {
  return useLiveResult(db, build, deps)?.docs;
}

/** What a live query found, and the `deps` of the query that found it. */
export interface LiveResult<Doc> {
  docs: Doc[];
  deps: DependencyList;
}

/**
 * useLiveDocs, also saying which query the documents come from: when `deps` change, the previous
 * query's documents stay until the new one answers, and a screen that widens its query (the
 * dashboard: 14 days first, then 90) must know which of the two it is showing.
 */
export function useLiveResult<Doc>(
  db: EddyDatabase | undefined,
  build: (db: EddyDatabase) => AnyQuery<Doc>,
  deps: DependencyList,
): LiveResult<Doc> | undefined {
  const [result, setResult] = useState<LiveResult<Doc> | undefined>();
  useEffect(() => {
    if (!db) return undefined;
    const sub = build(db).$.subscribe({
      next: (found) => setResult({ docs: found.map((d) => d.toJSON(false) as Doc), deps }),
      error: (err: unknown) => log.error('local query failed', err),
    });
    return () => sub.unsubscribe();
    // `build` is a new closure every render; `deps` say when the query really changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps stand for build's (the useEffect contract, one level up)
  }, [db, ...deps]);
  // After the render that shows the first result: background work of the start may begin.
  useEffect(() => {
    if (result !== undefined) markScreenShown();
  }, [result]);
  return result;
}
