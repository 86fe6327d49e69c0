// The scheduler inside the server process: a pass every REMINDER_INTERVAL_SECONDS. Passes never
// overlap (the next one is timed from the end of the last), and stopping waits for a pass in
// flight, so the database is not closed under it. `wake` asks for a pass soon (a severe low was
// written): within WAKE_DELAY_MS when idle, or right after the pass in flight.
import type { FastifyBaseLogger } from 'fastify';

export interface ReminderLoop {
  /** A pass soon, without waiting for the interval; any number of calls ask for one pass. */
  wake(): void;
  stop(): Promise<void>;
}

/** Long enough for the write that woke the loop to commit. */
export const WAKE_DELAY_MS = 500;

export function startReminderLoop(pass: (now: Date) => Promise<unknown>, intervalMs: number, log: Pick<FastifyBaseLogger, 'error'>): ReminderLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  /** Woken while a pass ran: the job may have committed after that pass claimed. */
  let again = false;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    again = false;
    running = pass(new Date())
      .then(() => undefined)
      .catch((err: unknown) => log.error({ err }, 'reminder pass failed'))
      .finally(() => {
        running = undefined;
        if (!stopped) schedule(again ? WAKE_DELAY_MS : intervalMs);
      });
  };
  // The first pass right away: it catches up on what fell due while the server was down.
  schedule(0);

  return {
    wake() {
      if (stopped) return;
      if (running) again = true;
      else schedule(WAKE_DELAY_MS);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
