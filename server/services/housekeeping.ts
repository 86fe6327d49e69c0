// Periodic clean-up of rows that only mattered for a while: ended sessions, spent one-time codes,
// old rate-limit windows, month-old reminders, and applied mutation ids and history marks past their 90 days. Safe on
// several instances at once (each statement is idempotent).
import type { AppContext } from '../context.ts';
import { appliedMutationRepo } from '../repositories/applied-mutations.ts';
import { historyMarkRepo } from '../repositories/history-marks.ts';
import { otpRepo } from '../repositories/otps.ts';
import { rateLimitRepo } from '../repositories/rate-limits.ts';
import { reminderJobRepo } from '../repositories/reminder-jobs.ts';
import { sessionRepo } from '../repositories/sessions.ts';
import { HISTORY_MARK_TTL_MS } from './history-marks.ts';
import { APPLIED_MUTATION_TTL_MS } from './mutations.ts';

const WEEK = 7 * 24 * 3600_000;

export async function housekeeping(ctx: Pick<AppContext, 'db'>, now = new Date()): Promise<void> {
  const weekAgo = new Date(now.getTime() - WEEK);
  await sessionRepo.purgeEnded(ctx.db, weekAgo);
  await otpRepo.purgeExpiredBefore(ctx.db, new Date(now.getTime() - 24 * 3600_000));
  await rateLimitRepo.purgeExpired(ctx.db);
  // Reminder rows only matter while they might be sent or planned again; a month answers "did my
  // reminder go out?" questions.
  await reminderJobRepo.purgeBefore(ctx.db, new Date(now.getTime() - 30 * 24 * 3600_000));
  await appliedMutationRepo.purgeBefore(ctx.db, new Date(now.getTime() - APPLIED_MUTATION_TTL_MS));
  await historyMarkRepo.purgeBefore(ctx.db, new Date(now.getTime() - HISTORY_MARK_TTL_MS));
}

/** Runs housekeeping hourly; the timer never keeps the process alive. */
export function scheduleHousekeeping(ctx: AppContext): () => void {
  const timer = setInterval(() => {
    housekeeping(ctx).catch((err: unknown) => ctx.log.warn({ err }, 'housekeeping failed'));
  }, 3600_000);
  timer.unref();
  return () => clearInterval(timer);
}
