import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, dataDir: './data', databaseUrl: undefined, demo: undefined, smtpUrl: undefined });
  });

  it('limits each rate-limited kind of route on its own, 20 logins, 60 consent calls and 30 reports a minute by default', () => {
    expect(loadConfig({})).toMatchObject({ authRateLimit: 20, consentRateLimit: 60, reportRateLimit: 30 });
    expect(loadConfig({ AUTH_RATE_LIMIT: '5', CONSENT_RATE_LIMIT: '6', REPORT_RATE_LIMIT: '7' })).toMatchObject({
      authRateLimit: 5,
      consentRateLimit: 6,
      reportRateLimit: 7,
    });
    expect(() => loadConfig({ REPORT_RATE_LIMIT: '0' })).toThrow(/REPORT_RATE_LIMIT/);
  });

  it('reads and converts values', () => {
    const c = loadConfig({ PORT: '8080', DATABASE_URL: 'postgres://u@db/x', DEMO: '1', SMTP_URL: 'smtp://mail:25', TRUST_PROXY: 'true' });
    expect(c).toMatchObject({ port: 8080, databaseUrl: 'postgres://u@db/x', demo: true, smtpUrl: 'smtp://mail:25', trustProxy: true });
  });

  it('ends the demo data at DEMO_NOW when given, and refuses what is not an instant', () => {
    expect(loadConfig({}).demoNow).toBeUndefined();
    expect(loadConfig({ DEMO_NOW: '2026-03-15T09:00:00Z' }).demoNow?.toISOString()).toBe('2026-03-15T09:00:00.000Z');
    expect(() => loadConfig({ DEMO_NOW: 'yesterday' })).toThrow(ConfigError);
    expect(() => loadConfig({ DEMO_NOW: '2026-02-31T09:00:00Z' })).toThrow(/DEMO_NOW/);
  });

  it('configures push and reminders: Web Push with generated keys and the scheduler on by default', () => {
    const c = loadConfig({ MAIL_FROM: 'Ward 7 <ward7@hospital.example>' });
    expect(c).toMatchObject({
      push: { provider: 'webpush' },
      vapidKeys: undefined,
      vapidSubject: 'mailto:ward7@hospital.example',
      reminders: true,
      reminderIntervalSeconds: 60,
      pushAllowInsecureEndpoints: false,
    });
    expect(loadConfig({ MAIL_FROM: 'no-reply@eddy.example' }).vapidSubject).toBe('mailto:no-reply@eddy.example');
    expect(
      loadConfig({ REMINDERS: '0', REMINDER_INTERVAL_SECONDS: '15', PUSH_ALLOW_INSECURE_ENDPOINTS: '1', VAPID_SUBJECT: 'https://hospital.example' }),
    ).toMatchObject({
      reminders: false,
      reminderIntervalSeconds: 15,
      pushAllowInsecureEndpoints: true,
      vapidSubject: 'https://hospital.example',
    });
    const publicKey = `B${'a'.repeat(86)}`;
    const privateKey = 'p'.repeat(43);
    expect(loadConfig({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey }).vapidKeys).toEqual({ publicKey, privateKey });
  });

  it('allows push endpoints of the browsers’ push services, or the ones configured (issue 17)', () => {
    expect(loadConfig({}).pushEndpointHosts).toEqual([
      'fcm.googleapis.com',
      'android.googleapis.com',
      'push.services.mozilla.com',
      'notify.windows.com',
      'push.apple.com',
    ]);
    expect(loadConfig({ PUSH_ENDPOINT_HOSTS: ' FCM.googleapis.com , push.hospital.example. ' }).pushEndpointHosts).toEqual([
      'fcm.googleapis.com',
      'push.hospital.example',
    ]);
    expect(() => loadConfig({ PUSH_ENDPOINT_HOSTS: 'fcm.googleapis.com,https://x.example/,10.0.0.1:443' })).toThrow(
      'PUSH_ENDPOINT_HOSTS must be host names separated by commas (not "https://x.example/", "10.0.0.1:443")',
    );
    expect(() => loadConfig({ PUSH_ENDPOINT_HOSTS: ' , ' })).toThrow(/PUSH_ENDPOINT_HOSTS must be host names/);
  });

  it('reads the Firebase settings when PUSH_PROVIDER=fcm, and says which are missing', () => {
    const firebase = { apiKey: 'k', projectId: 'p', messagingSenderId: '1', appId: 'a' };
    const c = loadConfig({
      PUSH_PROVIDER: 'fcm',
      FCM_SERVICE_ACCOUNT: '/etc/eddy/sa.json',
      FIREBASE_WEB_CONFIG: JSON.stringify(firebase),
      FIREBASE_VAPID_KEY: `B${'x'.repeat(86)}`,
    });
    expect(c.push).toEqual({ provider: 'fcm', serviceAccountPath: '/etc/eddy/sa.json', webConfig: firebase, vapidKey: `B${'x'.repeat(86)}` });
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        return (err as ConfigError).problems;
      }
      return [];
    };
    expect(problems({ PUSH_PROVIDER: 'fcm' })).toEqual([
      'FCM_SERVICE_ACCOUNT is required when PUSH_PROVIDER=fcm (the path of the service-account JSON file)',
      'FIREBASE_VAPID_KEY is required when PUSH_PROVIDER=fcm (the web push certificate key of the Firebase project)',
      'FIREBASE_WEB_CONFIG is required when PUSH_PROVIDER=fcm (the JSON of the Firebase web app configuration)',
    ]);
    expect(
      problems({ PUSH_PROVIDER: 'fcm', FCM_SERVICE_ACCOUNT: 'sa.json', FIREBASE_VAPID_KEY: `B${'x'.repeat(86)}`, FIREBASE_WEB_CONFIG: '{"apiKey":"k"}' }),
    ).toEqual(['FIREBASE_WEB_CONFIG must be a JSON object with the text fields apiKey, projectId, messagingSenderId and appId (authDomain optional)']);
    expect(problems({ VAPID_PUBLIC_KEY: `B${'a'.repeat(86)}` })).toEqual([
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together (or neither, to use generated keys)',
    ]);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).databaseUrl).toBeUndefined();
  });

  it('lists everything that is wrong at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SMTP_URL: 'mail.example',
        LOG_LEVEL: 'loud',
        VAPID_SUBJECT: 'ward7@hospital.example',
        PUSH_PROVIDER: 'apns',
        REMINDER_INTERVAL_SECONDS: '1',
        VAPID_PRIVATE_KEY: 'short',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT must be a whole number',
        'DATABASE_URL must be a postgres:// URL',
        'SMTP_URL must be an smtp:// or smtps:// URL',
        'LOG_LEVEL must be one of: fatal, error, warn, info, debug, trace, silent',
        'VAPID_SUBJECT must be a mailto: address or an https:// URL',
        'PUSH_PROVIDER must be one of: webpush, fcm',
        'REMINDER_INTERVAL_SECONDS must be between 5 and 3600',
        'VAPID_PRIVATE_KEY must be a base64url P-256 private key (43 characters)',
      ]),
    );
    expect((error as ConfigError).message).toMatch(/^Invalid configuration:\n {2}- /);
  });
});
