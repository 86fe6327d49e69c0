// A push service on loopback, for tests: it receives the server's Web Push requests exactly as
// FCM, Mozilla's autopush or Apple's service would (RFC 8030), and the "browser" side holds the
// subscription's private keys, so a test decrypts what the server sent (RFC 8291, aes128gcm) and
// checks the VAPID signature (RFC 8292). Each subscription may be told to answer with a status,
// e.g. 410 Gone for a subscription the browser dropped.
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

// http_ece (the reference implementation of RFC 8188, a dependency of web-push) has no types.
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer }): Buffer;
};

export interface PushRequest {
  /** The subscription the request was for. */
  name: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The decrypted JSON text. */
  text: string;
  json: Record<string, unknown>;
}

export interface PushPeer {
  origin: string;
  requests: PushRequest[];
  /** A browser's subscription at this push service: the JSON a browser's PushSubscription gives. */
  subscribe(name: string, status?: number): { endpoint: string; keys: { p256dh: string; auth: string } };
  setStatus(name: string, status: number): void;
  /** Delay before answering, so that concurrent senders really overlap. */
  delayMs: number;
  of(name: string): PushRequest[];
  close(): Promise<void>;
}

export async function startPushPeer(): Promise<PushPeer> {
  const subs = new Map<string, { ecdh: ECDH; auth: Buffer; status: number }>();
  const requests: PushRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const name = decodeURIComponent((req.url ?? '').replace(/^\/push\//, ''));
      const sub = subs.get(name);
      const answer = (status: number) => setTimeout(() => res.writeHead(status).end(), peer.delayMs);
      if (req.method !== 'POST' || !sub) return answer(404);
      const body = Buffer.concat(chunks);
      let text: string;
      try {
        text = ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth }).toString('utf8');
      } catch {
        return answer(400); // a real push service cannot tell, but the browser would drop it
      }
      requests.push({ name, headers: req.headers, body, text, json: JSON.parse(text) as Record<string, unknown> });
      answer(sub.status);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const peer: PushPeer = {
    origin,
    requests,
    delayMs: 0,
    subscribe(name, status = 201) {
      // What a browser does when it subscribes: a P-256 key pair and a 16-byte auth secret.
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      subs.set(name, { ecdh, auth, status });
      return {
        endpoint: `${origin}/push/${encodeURIComponent(name)}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      };
    },
    setStatus(name, status) {
      const sub = subs.get(name);
      if (sub) sub.status = status;
    },
    of: (name) => requests.filter((r) => r.name === name),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return peer;
}

/**
 * Checks a request's `Authorization: vapid t=<JWT>, k=<public key>` the way a push service does:
 * the key is the server's, the ES256 signature verifies with it, the audience is this push
 * service's origin and the token has not expired. Returns the JWT's claims.
 */
export function verifyVapid(headers: IncomingHttpHeaders, expected: { publicKey: string; audience: string }): Record<string, unknown> {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(String(headers.authorization ?? ''));
  if (!m?.[1] || !m[2]) throw new Error(`no VAPID authorization header: ${String(headers.authorization)}`);
  if (m[2] !== expected.publicKey) throw new Error('VAPID key is not the server’s');
  const [h, p, s] = m[1].split('.') as [string, string, string];
  const raw = Buffer.from(m[2], 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  if (!verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url')))
    throw new Error('VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (claims['aud'] !== expected.audience) throw new Error(`VAPID audience ${String(claims['aud'])} is not ${expected.audience}`);
  if (typeof claims['exp'] !== 'number' || claims['exp'] * 1000 < Date.now()) throw new Error('VAPID token expired');
  return claims;
}
