import { ApiError } from '../../../sync/api-client.ts';

/**
 * What to tell the patient when a call failed: the server's own message when it answered (wrong
 * password, code expired, wait a minute…), otherwise `noAnswer` ('Something went wrong. Please try
 * again.'), since then nothing is known about the credentials.
 */
export function failureMessage(err: unknown, noAnswer: string): string {
  return err instanceof ApiError && err.status !== 0 && err.message ? err.message : noAnswer;
}
