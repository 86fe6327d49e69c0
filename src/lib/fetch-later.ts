// Asks the service worker for what the precache leaves out (sw/later.ts): the PDF engine and the
// fonts of the language in use, so a PDF can be made offline later. Called by the logged-in layouts
// (patient and staff) when they show and when the language changes; not on the login route.
// Offline the request is not sent (the worker could not fetch anything); going online sends it.
// When the worker answers that files are still missing (a fetch failed on a flaky connection, or
// the worker's own connection came back later than the page's), the request is sent again after
// a pause that doubles each time, up to 5 minutes, for as long as the page is online.
let wanted: string | undefined;
let listening = false;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let failures = 0;

/** The first pause before asking again, and the longest. */
export const LATER_RETRY_FIRST_MS = 10_000;
const LATER_RETRY_MAX_MS = 5 * 60_000;

async function post(): Promise<void> {
  clearTimeout(retryTimer);
  retryTimer = undefined;
  if (!wanted || navigator.onLine === false) return;
  const registration = await navigator.serviceWorker.ready;
  registration.active?.postMessage({ type: 'fetch-later', locales: [wanted] });
}

function onWorkerMessage(event: MessageEvent): void {
  const data = event.data as { type?: unknown; missing?: unknown } | null;
  if (data?.type !== 'later-ready' || typeof data.missing !== 'number') return;
  if (data.missing === 0) {
    failures = 0;
    return;
  }
  failures++;
  clearTimeout(retryTimer);
  const pause = Math.min(LATER_RETRY_MAX_MS, LATER_RETRY_FIRST_MS * 2 ** (failures - 1));
  retryTimer = setTimeout(() => void post().catch(() => undefined), pause);
}

export function requestLaterFiles(locale: string): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  wanted = locale;
  if (!listening) {
    listening = true;
    window.addEventListener('online', () => {
      failures = 0;
      void post().catch(() => undefined);
    });
    navigator.serviceWorker.addEventListener('message', onWorkerMessage);
  }
  void post().catch(() => undefined);
}
