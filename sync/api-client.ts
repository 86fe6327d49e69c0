// The only way the browser talks to the server (docs/architecture.md). It adds the headers of docs/requirements.md §6/§7,
// turns failures into the messages of docs/requirements.md §8, reports activity for the global loader and hands
// every 401 to the session, which clears the store and returns the user to the right login page.

export const MSG_REQUEST_FAILED = 'Something went wrong. Please try again.';
export const MSG_RESPONSE_FAILED = 'Something went wrong.';
export const MSG_SESSION_EXPIRED = 'Session Expired. Please login again.';

export class ApiError extends Error {
  /** HTTP status; 0 when the request never got an answer (offline, timeout). */
  readonly status: number;
  /** What kind of refusal, where the server names one beside its message (e.g. `weak-password`). */
  readonly code: string | undefined;
  /** Why, within that kind (e.g. `common` for a weak password), for the device to say it in its own language. */
  readonly reason: string | undefined;
  constructor(status: number, message: string, detail: { code?: unknown; reason?: unknown } = {}) {
    super(message);
    this.status = status;
    this.code = typeof detail.code === 'string' ? detail.code : undefined;
    this.reason = typeof detail.reason === 'string' ? detail.reason : undefined;
  }
}

export interface ApiClientOptions {
  baseUrl?: string;
  getToken: () => string | undefined;
  /** Patients send their device id; staff never do (docs/requirements.md §6). */
  getDeviceId?: () => string | undefined;
  /** Staff viewing a patient send that patient's hospital number. */
  getHospNo?: () => string | undefined;
  /**
   * A call was answered 401; `token` is the one it was sent with (undefined: none), so a late
   * answer to a session that has ended since is not taken for the session now in use.
   */
  onUnauthorized?: (token: string | undefined) => void;
  /**
   * True once a 401 has ended the session: a request made after it fails at once as that 401
   * would, without reaching the network (calls with credentials of their own still go).
   */
  isStopped?: () => boolean;
  /** +1 when a request starts, -1 when it ends: drives the global loader. */
  onActivity?: (delta: 1 | -1) => void;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Background calls (sync) do not show the full-screen loader. */
  quiet?: boolean;
  /**
   * The call checks credentials of its own (changing a password with the current one): its 401
   * means "wrong password", not "session over", and must not log the patient out.
   */
  checksCredentials?: boolean;
  /** A bearer token for this call only (a doctor token being verified before any session exists). */
  token?: string;
}

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient(opts: ApiClientOptions) {
  const doFetch = (...args: Parameters<typeof fetch>) => (opts.fetchImpl ?? fetch)(...args);

  async function request<T>(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, ro: RequestOptions = {}): Promise<T> {
    if (!ro.token && !ro.checksCredentials && opts.isStopped?.()) throw new ApiError(401, MSG_SESSION_EXPIRED);
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
    const token = ro.token ?? opts.getToken();
    if (token) headers['Authorization'] = `Bearer ${token}`;
    const deviceId = opts.getDeviceId?.();
    if (deviceId) headers['X-Device-Id'] = deviceId;
    const hospNo = opts.getHospNo?.();
    if (hospNo) headers['X-Hosp-No'] = hospNo;

    const timeout = AbortSignal.timeout(opts.timeoutMs ?? 20_000);
    const signal = ro.signal ? AbortSignal.any([ro.signal, timeout]) : timeout;
    if (!ro.quiet) opts.onActivity?.(1);
    let res: Response;
    try {
      res = await doFetch(`${opts.baseUrl ?? ''}/api${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal,
        credentials: 'same-origin',
      });
    } catch {
      throw new ApiError(0, MSG_REQUEST_FAILED);
    } finally {
      if (!ro.quiet) opts.onActivity?.(-1);
    }
    // A success whose body never fully arrived (the connection cut after the headers, the page
    // leaving) is no answer at all, never an empty one: read as `{}`, the session check took it for
    // "token invalid" and logged the patient out (docs/findings.md).
    let json: unknown;
    // Not our API's answer: a captive portal (hospital Wi-Fi before its login) answers every request
    // with its HTML page, as 200, 302, 401, 403 or 511 (Network Authentication Required). That is no answer at all, never a session that
    // ended or a refusal (issue 44); a 5xx of a proxy in front of the server stays a server error.
    const fromApi = (res.headers.get('content-type') ?? '').toLowerCase().includes('application/json');
    if (!fromApi && (res.status < 500 || res.status === 511)) {
      await res.body?.cancel().catch(() => undefined);
      throw new ApiError(0, MSG_REQUEST_FAILED);
    }
    try {
      json = await res.json();
    } catch {
      if (res.ok) throw new ApiError(0, MSG_REQUEST_FAILED);
      json = undefined;
    }
    const message =
      typeof json === 'object' && json !== null && 'message' in json && typeof json.message === 'string' && json.message ? json.message : undefined;
    const detail = typeof json === 'object' && json !== null ? (json as { code?: unknown; reason?: unknown }) : {};
    if (res.status === 401) {
      if (!ro.checksCredentials) opts.onUnauthorized?.(token);
      // A login's 401 may say what it still needs (a staff login's second factor: mfa-required).
      throw new ApiError(401, message ?? MSG_SESSION_EXPIRED, ro.checksCredentials ? detail : {});
    }
    if (!res.ok) throw new ApiError(res.status, message ?? MSG_RESPONSE_FAILED, detail);
    // The caller names the answer's type, derived from the route's schema in schemas/api.ts
    // (Answer<typeof …>): the server's serializer lets nothing through that the schema does not list.
    return json as T;
  }

  return {
    get: <T>(path: string, ro?: RequestOptions) => request<T>('GET', path, undefined, ro),
    post: <T>(path: string, body?: unknown, ro?: RequestOptions) => request<T>('POST', path, body, ro),
    patch: <T>(path: string, body: unknown, ro?: RequestOptions) => request<T>('PATCH', path, body, ro),
  };
}

const DEVICE_KEY = 'eddy_device_id';

/** A random id for this browser, kept across sessions: it identifies a device, not a person. */
export function deviceId(storage: Storage = localStorage): string {
  let id = storage.getItem(DEVICE_KEY);
  if (!id) {
    id = crypto.randomUUID();
    storage.setItem(DEVICE_KEY, id);
  }
  return id;
}
