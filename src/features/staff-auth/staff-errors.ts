import { ApiError } from '../../../sync/api-client.ts';

/** The server's own message when it answered (wrong password…), otherwise `noAnswer`. */
export function staffFailure(err: unknown, noAnswer: string): string {
  return err instanceof ApiError && err.status !== 0 && err.message ? err.message : noAnswer;
}
