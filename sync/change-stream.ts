// The device's end of the live change feed (issue 46; docs/sync-protocol.md, "Live changes"): it
// follows GET /api/changes while the page is shown and calls `onChange` when what it shows has a
// newer version, so the device pulls by version as it always does, within a moment of the commit.
//
// - Read with fetch (the session is a bearer token, which EventSource cannot send) and parsed by
//   eventsource-parser.
// - Hidden page: the stream is closed; shown again: opened again, and its `ready` event says the
//   version reached meanwhile (a pull if it moved).
// - Lost (a server restart, a balancer switching instances, a device that slept): opened again
//   after `retry` (the server's 3 s), doubling up to 30 s while it fails; a stream silent for
//   longer than two heartbeats is taken for lost.
// - A stream that cannot be held (a proxy that buffers it: no `ready` within 10 s, or opened and
//   closed again and again) turns into polling: `onChange` every `pollMs`.
// - A refusal (401, 403, 404, 400) stops it. A 401 of our API (JSON, not a captive portal's page)
//   is the session's end like any call's: `onUnauthorized` hears it at once, so nothing else is sent
//   on that session while the stream's screen goes on loading.
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { inBackground } from './background.ts';

export interface ChangeInfo {
  /** `ready`: the stream (re)opened; `change`: a new version; `poll`: the fallback's turn. */
  kind: 'ready' | 'change' | 'poll';
  /** The patient's version, when the stream follows a patient. */
  version?: number;
  /** Changes may have been missed (the server lost its database's signals for a moment). */
  gap: boolean;
}

export interface ChangeStreamOptions {
  /** The API's origin ('' for this page's). */
  baseUrl: string;
  getToken(): string | undefined;
  /** '?hospNo=…' or '?hospitalId=…' for staff; '' for the patient's own records. */
  query?: string;
  onChange(info: ChangeInfo): void;
  /** The server answered 401 to the stream opened with `token`: that session has ended. */
  onUnauthorized?(token: string): void;
  /** The fallback's period (default 30 s). */
  pollMs?: number;
  fetch?: typeof fetch;
  /** The page whose visibility opens and closes the stream (default `document`, when there is one). */
  page?: VisiblePage;
}

/** What the stream needs of the page (a `document`). */
export interface VisiblePage {
  readonly visibilityState: string;
  addEventListener(type: 'visibilitychange', listener: () => void): void;
  removeEventListener(type: 'visibilitychange', listener: () => void): void;
}

export const FIRST_RETRY_MS = 3_000;
export const MAX_RETRY_MS = 30_000;
/** The server's heartbeat is 20 s: silent for longer than two, the stream is taken for lost. */
export const SILENT_MS = 45_000;
/** No `ready` this long after the answer began: a proxy holds the events back. */
export const READY_WITHIN_MS = 10_000;
/** Streams that end this soon after opening, this many times in a row: polling instead. */
const SHORT_LIVED_MS = 5_000;
const SHORT_LIVED_MAX = 3;
const DEFAULT_POLL_MS = 30_000;

const REFUSED = new Set([400, 401, 403, 404]);

/** Follows the changes until the returned function is called. */
export function followChanges(opts: ChangeStreamOptions): () => void {
  const page = opts.page ?? (typeof document === 'undefined' ? undefined : document);
  const doFetch = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
  let stopped = false;
  let refused = false;
  let polling = false;
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retryMs = FIRST_RETRY_MS;
  let shortLived = 0;
  const shown = () => page === undefined || page.visibilityState !== 'hidden';

  const clearTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const later = (ms: number, run: () => void) => {
    clearTimer();
    timer = setTimeout(() => {
      timer = undefined;
      run();
    }, ms);
  };

  const poll = () => {
    if (stopped || !shown()) return;
    opts.onChange({ kind: 'poll', gap: false });
    later(pollMs, poll);
  };

  async function connect(): Promise<void> {
    if (stopped || refused || !shown()) return;
    if (polling) {
      poll();
      return;
    }
    const token = opts.getToken();
    if (!token) return;
    const abort = new AbortController();
    controller = abort;
    const openedAt = Date.now();
    let gotReady = false;
    let lastHeard = Date.now();
    const watchdog = setInterval(() => {
      const quiet = Date.now() - lastHeard;
      if (quiet > SILENT_MS || (!gotReady && Date.now() - openedAt > READY_WITHIN_MS)) abort.abort();
    }, 1_000);
    let failed = false;
    try {
      const res = await doFetch(`${opts.baseUrl}/api/changes${opts.query ?? ''}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'x-requested-with': 'XMLHttpRequest' },
        signal: abort.signal,
        cache: 'no-store',
      });
      if (REFUSED.has(res.status)) {
        await res.body?.cancel().catch(() => undefined);
        // A captive portal's page (hospital Wi-Fi before its login) is no answer: tried again later.
        if (!(res.headers.get('content-type') ?? '').toLowerCase().includes('application/json'))
          throw new Error(`change stream answered ${res.status}, not from the API`);
        refused = true;
        if (res.status === 401) opts.onUnauthorized?.(token);
        return;
      }
      if (!res.ok || !res.body) throw new Error(`change stream answered ${res.status}`);
      const events = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(
        new EventSourceParserStream({
          onRetry: (ms) => {
            retryMs = Math.max(1_000, Math.min(MAX_RETRY_MS, ms));
          },
          onComment: () => {
            lastHeard = Date.now();
          },
        }),
      );
      const reader = events.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        lastHeard = Date.now();
        if (value.event !== 'ready' && value.event !== 'change') continue;
        const data = parse(value.data);
        if (value.event === 'ready') {
          gotReady = true;
          shortLived = 0;
          retryMs = FIRST_RETRY_MS;
        }
        opts.onChange({ kind: value.event, ...(data.version === undefined ? {} : { version: data.version }), gap: data.gap });
      }
    } catch {
      failed = true;
    } finally {
      clearInterval(watchdog);
      if (controller === abort) controller = undefined;
    }
    if (stopped || refused || !shown()) return;
    // A stream that never said `ready`, or ends at once, again and again: a proxy in the way.
    if (!gotReady || Date.now() - openedAt < SHORT_LIVED_MS) shortLived++;
    if (shortLived >= SHORT_LIVED_MAX) {
      polling = true;
      later(pollMs, poll);
      return;
    }
    later(failed ? retryMs : Math.min(retryMs, FIRST_RETRY_MS), open);
    if (failed) retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
  }

  function open(): void {
    inBackground(connect(), 'The change stream failed');
  }

  const onVisibility = () => {
    if (!shown()) {
      clearTimer();
      controller?.abort();
      return;
    }
    if (controller === undefined && timer === undefined) open();
  };
  page?.addEventListener('visibilitychange', onVisibility);
  open();
  return () => {
    stopped = true;
    clearTimer();
    controller?.abort();
    page?.removeEventListener('visibilitychange', onVisibility);
  };
}

function parse(data: string): { version?: number; gap: boolean } {
  try {
    const v: unknown = JSON.parse(data);
    if (typeof v !== 'object' || v === null) return { gap: false };
    const version = 'version' in v && typeof v.version === 'number' ? v.version : undefined;
    return { ...(version === undefined ? {} : { version }), gap: 'gap' in v && v.gap === true };
  } catch {
    return { gap: false };
  }
}
