/** True when the error (or the driver error Drizzle wrapped) is a unique violation (SQLSTATE 23505). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const x = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (x.code === '23505') return constraint === undefined || x.constraint === constraint || String(x.message).includes(constraint);
  }
  return false;
}
