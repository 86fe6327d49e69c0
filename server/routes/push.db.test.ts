import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { serverSettings } from '../db/schema.ts';
import { resolvePushSettings, vapidKeys } from '../push/settings.ts';
import { settingsRepo } from '../repositories/settings.ts';
import { call, createHarness, type Harness } from '../testing/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('GET /api/push/config', () => {
  it('gives anyone the VAPID public key generated on the first start and kept in the database', async () => {
    const res = await call(h.app, 'GET', '/api/push/config');
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['provider', 'publicKey']);
    expect(res.json['provider']).toBe('webpush');
    const key = Buffer.from(String(res.json['publicKey']), 'base64url');
    expect(key).toHaveLength(65); // an uncompressed P-256 point, as PushManager.subscribe wants
    expect(key[0]).toBe(4);
    expect(await settingsRepo.get(h.db, 'vapidKeys')).toMatchObject({ publicKey: res.json['publicKey'] });

    // A second server on the same database (a restart, another instance) uses the same keys.
    const again = await buildApp({ config: h.config, database: h.database, logger: false });
    try {
      expect((await call(again, 'GET', '/api/push/config')).json['publicKey']).toBe(res.json['publicKey']);
    } finally {
      await again.close();
    }
  });

  it('several instances generating at once agree on one key pair', async () => {
    await h.db.delete(serverSettings).where(eq(serverSettings.key, 'vapidKeys'));
    const all = await Promise.all(Array.from({ length: 5 }, () => vapidKeys(h.config, h.db)));
    expect(new Set(all.map((k) => k.publicKey)).size).toBe(1);
    expect(new Set(all.map((k) => k.privateKey)).size).toBe(1);
  });

  it('uses keys given by the environment', async () => {
    const keys = webpush.generateVAPIDKeys();
    const config = loadConfig({
      ...envOf(h),
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'https://hospital.example/contact',
    });
    const settings = await resolvePushSettings(config, h.db);
    expect(settings).toMatchObject({ provider: 'webpush', vapid: { ...keys, subject: 'https://hospital.example/contact' } });
  });

  it('with PUSH_PROVIDER=fcm gives the Firebase web configuration and its web push key', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'eddy-fcm-'));
    try {
      const account = path.join(dir, 'service-account.json');
      await writeFile(
        account,
        JSON.stringify({
          type: 'service_account',
          project_id: 'eddy-test',
          client_email: 'x@eddy-test.iam.gserviceaccount.com',
          private_key: '-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n',
        }),
      );
      const firebase = {
        apiKey: 'AIza-test',
        authDomain: 'eddy-test.firebaseapp.com',
        projectId: 'eddy-test',
        messagingSenderId: '1234567890',
        appId: '1:1234567890:web:abc',
      };
      const vapidKey = webpush.generateVAPIDKeys().publicKey;
      const env = {
        ...envOf(h),
        PUSH_PROVIDER: 'fcm',
        FCM_SERVICE_ACCOUNT: account,
        FIREBASE_WEB_CONFIG: JSON.stringify(firebase),
        FIREBASE_VAPID_KEY: vapidKey,
      };
      const app = await buildApp({ config: loadConfig(env), database: h.database, logger: false });
      try {
        const res = await call(app, 'GET', '/api/push/config');
        expect(res.json).toEqual({ provider: 'fcm', publicKey: vapidKey, firebase });
      } finally {
        await app.close();
      }
      // A missing or wrong service-account file stops the start with a clear message.
      await expect(
        buildApp({ config: loadConfig({ ...env, FCM_SERVICE_ACCOUNT: path.join(dir, 'missing.json') }), database: h.database, logger: false }),
      ).rejects.toThrow(ConfigError);
      await writeFile(account, '{"type":"service_account"}');
      await expect(resolvePushSettings(loadConfig(env), h.db)).rejects.toThrow(/not a Firebase service-account key/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

function envOf(harness: Harness): Record<string, string> {
  return { DATA_DIR: harness.dataDir, LOG_LEVEL: 'silent' };
}
