import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_ENDPOINT_HOSTS, endpointProblem, isPublicAddress, publicOnlyLookup, type LookupAll } from './endpoint-policy.ts';
import type { PushMessage } from './messages.ts';
import type { DeviceToken } from './sender.ts';
import { webPushSender } from './web-push-sender.ts';

const policy = { hosts: DEFAULT_PUSH_ENDPOINT_HOSTS, allowInsecureLoopback: false };

/** A resolver that answers every name with `addresses`. */
const answering =
  (...addresses: string[]): LookupAll =>
  (_hostname, _options, callback) =>
    callback(
      null,
      addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

describe('push endpoints (issue 17: no request forgery through a subscription)', () => {
  it('accepts the push services browsers use', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:APA91b',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://wns2-by3p.notify.windows.com/w/?token=BQYAAA',
      'https://web.push.apple.com/QGuQyavXutnMH',
      'https://FCM.googleapis.com./fcm/send/x',
    ]) {
      expect(endpointProblem(endpoint, policy), endpoint).toBeUndefined();
    }
  });

  it('refuses anything else, with a message naming the field', () => {
    for (const endpoint of [
      'not a url',
      'http://fcm.googleapis.com/fcm/send/x',
      'https://10.0.0.5/fcm/send/x',
      'https://[fd00::1]/x',
      'https://169.254.169.254/latest/meta-data',
      'https://intranet.hospital.example/admin',
      'https://fcm.googleapis.com.evil.example/x',
      'https://evilfcm.googleapis.com.example/x',
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://user:pw@fcm.googleapis.com/fcm/send/x',
      'http://127.0.0.1:9/peer',
    ]) {
      expect(endpointProblem(endpoint, policy), endpoint).toMatch(/^token\.endpoint must/);
    }
  });

  it('lets the test peer through only with the test setting', () => {
    expect(endpointProblem('http://127.0.0.1:4000/push/a', { ...policy, allowInsecureLoopback: true })).toBeUndefined();
    expect(endpointProblem('http://localhost:4000/push/a', { ...policy, allowInsecureLoopback: true })).toBeUndefined();
    expect(endpointProblem('http://10.0.0.1:4000/push/a', { ...policy, allowInsecureLoopback: true })).toMatch(/https/);
  });

  it('calls public only what is public unicast', () => {
    for (const address of ['142.250.185.74', '2a00:1450:4001:82b::200a']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '192.0.2.1',
      '::1',
      '::',
      'fc00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '2002:7f00:1::1',
      '64:ff9b::a00:1',
      'not-an-address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('fails a lookup when any address of the name is not public, and passes a public one on', async () => {
    const lookup = (resolve: LookupAll, all: boolean) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((done) =>
        publicOnlyLookup(resolve)('fcm.googleapis.com', { all }, (err, address) => done({ err, address })),
      );
    expect(await lookup(answering('142.250.185.74'), false)).toEqual({ err: null, address: '142.250.185.74' });
    expect((await lookup(answering('142.250.185.74', '2a00:1450:4001:82b::200a'), true)).address).toHaveLength(2);
    const rebound = await lookup(answering('142.250.185.74', '10.0.0.7'), false);
    expect(rebound.err?.code).toBe('EPUSHADDRESS');
    expect(rebound.err?.message).toMatch(/10\.0\.0\.7, not a public address/);
  });

  it('never connects to a push service name that resolves inside the network, and drops that subscription', async () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const subscription = {
      endpoint: 'https://fcm.googleapis.com/fcm/send/rebound',
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    };
    const sender = webPushSender({ vapid: { subject: 'mailto:it@hospital.example', ...webpush.generateVAPIDKeys() }, policy, resolve: answering('127.0.0.1') });
    const device = (token: string): DeviceToken => ({ id: randomUUID(), provider: 'webpush', token, locale: null });
    const message: PushMessage = {
      notification: { title: 'Glucometer day', body: 'Please check your blood glucose.', tag: 'gluco-test' },
      data: { type: 'glucometerAlert', time: '08:00', notificationTime: '2026-11-30T08:00:00.000Z' },
    };
    const outcome = await sender.send(device(JSON.stringify(subscription)), message);
    expect(outcome).toMatchObject({ ok: false, gone: true, transient: false });
    expect(outcome.ok ? '' : outcome.error).toMatch(/127\.0\.0\.1, not a public address/);

    const stored = await sender.send(device(JSON.stringify({ ...subscription, endpoint: 'https://intranet.hospital.example/x' })), message);
    expect(stored).toMatchObject({ ok: false, gone: true });
  });
});
