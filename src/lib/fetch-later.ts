// Asks the service worker for what the precache leaves out (sw/later.ts): the PDF engine and the
// fonts of the language in use, so a PDF can be made offline later. Called by the logged-in layouts
// (patient and staff) when they show and when the language changes; not on the login route.
// Offline the request is not sent (the worker could not fetch anything); going online sends it.
let wanted: string | undefined;
let listening = false;

async function post(): Promise<void> {
  if (!wanted || navigator.onLine === false) return;
  const registration = await navigator.serviceWorker.ready;
  registration.active?.postMessage({ type: 'fetch-later', locales: [wanted] });
}

export function requestLaterFiles(locale: string): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  wanted = locale;
  if (!listening) {
    listening = true;
    window.addEventListener('online', () => void post().catch(() => undefined));
  }
  void post().catch(() => undefined);
}
