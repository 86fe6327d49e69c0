// Starts the worker the way the app does (new URL(…, import.meta.url), type module) and exposes one call for the test.
const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
(window as unknown as { makeReport: (unit: string, locale?: string) => Promise<unknown> }).makeReport = (unit, locale = 'en') =>
  new Promise((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.postMessage({ unit, locale });
  });
