// Every error the API answers with is `{message}` and a status from docs/requirements.md §10, plus, for some
// refusals, fields a device acts on (a 409's `current` row, the conflicting `fields`, a `code`).
// Services throw these; the error handler turns anything else into a logged 500 without leaking
// internals.
export type ErrorDetails = Readonly<Record<string, unknown>>;

export class HttpError extends Error {
  readonly statusCode: number;
  /** Sent beside `message` in the body; never overrides it. */
  readonly details: ErrorDetails | undefined;
  constructor(statusCode: number, message: string, details?: ErrorDetails) {
    super(message);
    this.statusCode = statusCode;
    this.details = details;
  }

  /** The JSON body of this error. */
  body(): Record<string, unknown> {
    const body: Record<string, unknown> = { message: this.message };
    for (const [key, value] of Object.entries(this.details ?? {})) if (key !== 'message') body[key] = value;
    return body;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Session Expired. Please login again.') => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string, details?: ErrorDetails) => new HttpError(409, message, details);
export const tooManyRequests = (message: string) => new HttpError(429, message);
export const serviceUnavailable = (message: string) => new HttpError(503, message);
