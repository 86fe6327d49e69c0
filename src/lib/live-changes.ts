// A screen that follows the live change feed while it is open (issue 46, sync/change-stream.ts):
// the staff review (one patient) and the worklist (one hospital). The stream's code loads with the
// first screen that follows one; it closes with the screen, and while the page is hidden.
import { useEffect, useRef } from 'react';
import { log } from '../../sync/log.ts';
import type { ChangeInfo } from '../../sync/change-stream.ts';

/** How a screen's stream reaches the session: its token, and the end of it when the stream is answered 401. */
export interface LiveSession {
  getToken(): string | undefined;
  onUnauthorized(token: string): void;
}

/** Follows `query` ('?hospNo=…', '?hospitalId=…'; undefined: nothing) and calls `onChange` for each event. */
export function useLiveChanges(query: string | undefined, session: LiveSession, onChange: (info: ChangeInfo) => void): void {
  const latest = useRef({ onChange, session });
  useEffect(() => {
    latest.current = { onChange, session };
  });
  useEffect(() => {
    if (query === undefined) return undefined;
    let stop: (() => void) | undefined;
    let open = true;
    import('../../sync/change-stream.ts').then(
      ({ followChanges }) => {
        if (open)
          stop = followChanges({
            baseUrl: '',
            query,
            getToken: () => latest.current.session.getToken(),
            onUnauthorized: (token) => latest.current.session.onUnauthorized(token),
            onChange: (info) => latest.current.onChange(info),
          });
      },
      (err: unknown) => log.warn('The live changes could not be followed', err),
    );
    return () => {
      open = false;
      stop?.();
    };
  }, [query]);
}
