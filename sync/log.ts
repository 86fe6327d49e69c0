// The browser side's one logger. Messages the spec names ("Failed locale loading", "Failed to load
// custom icons", …) go through here so that they are easy to find and to silence in tests.
/* eslint-disable no-console */
export const log = {
  error: (message: string, detail?: unknown) => console.error(message, ...(detail === undefined ? [] : [detail])),
  warn: (message: string, detail?: unknown) => console.warn(message, ...(detail === undefined ? [] : [detail])),
  info: (message: string, detail?: unknown) => console.info(message, ...(detail === undefined ? [] : [detail])),
};

/**
 * Starts `work` without waiting for it (an event handler, a timer, a subscription: nothing there can wait).
 * Work that tells the user about its own failures catches them itself; a rejection that still gets
 * here is logged as `what` rather than left unhandled. `undefined` is accepted for optional work
 * (`db?.insert(…)`).
 */
export function inBackground(work: Promise<unknown> | undefined, what: string): void {
  work?.catch((err: unknown) => log.error(what, err));
}
