// Work started without waiting for it: an event handler, a timer or a subscription cannot wait, and
// a promise left floating would hide its failure (the lint's no-floating-promises rule sends such
// work here).
import { log } from './log.ts';

/**
 * Starts `work` without waiting for it. Work that tells the user about its own failures catches
 * them itself; a rejection that still gets here is logged as `what` rather than left unhandled.
 * `undefined` is accepted for optional work (`db?.insert(…)`).
 */
export function inBackground(work: Promise<unknown> | undefined, what: string): void {
  work?.catch((err: unknown) => log.error(what, err));
}
