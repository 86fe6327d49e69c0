// The scheduler inside the server process: a pass every REMINDER_INTERVAL_SECONDS. Passes never
// overlap (the next one is timed from the end of the last), and stopping waits for a pass in
// flight, so the database is not closed under it.
import type { FastifyBaseLogger } from 'fastify';

export interface ReminderLoop {
  stop(): Promise<void>;
}

export function startReminderLoop(pass: (now: Date) => Promise<unknown>, intervalMs: number, log: Pick<FastifyBaseLogger, 'error'>): ReminderLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const tick = () => {
    running = pass(new Date())
      .then(() => undefined)
      .catch((err: unknown) => log.error({ err }, 'reminder pass failed'))
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(tick, intervalMs);
        timer.unref();
      });
  };
  // The first pass right away: it catches up on what fell due while the server was down.
  timer = setTimeout(tick, 0);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
