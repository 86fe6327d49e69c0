// What a caught value says. `catch` and a promise's rejection hand over `unknown`: usually an Error,
// but a library may throw anything, and a cast would read `.message` off whatever came.

/** The caught value's message: an Error's own, anything else as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The caught value's `code` (Node's, the drivers' and Firebase's errors carry one) when it is text. */
export function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

/** The error the caught value wraps (`cause`), when it has one. */
export function errorCause(err: unknown): unknown {
  return typeof err === 'object' && err !== null && 'cause' in err ? err.cause : undefined;
}
