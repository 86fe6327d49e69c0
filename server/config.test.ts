import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, dataDir: './data', databaseUrl: undefined, demo: undefined, smtpUrl: undefined });
  });

  it('reads and converts values', () => {
    const c = loadConfig({ PORT: '8080', DATABASE_URL: 'postgres://u@db/x', DEMO: '1', SMTP_URL: 'smtp://mail:25', TRUST_PROXY: 'true' });
    expect(c).toMatchObject({ port: 8080, databaseUrl: 'postgres://u@db/x', demo: true, smtpUrl: 'smtp://mail:25', trustProxy: true });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).databaseUrl).toBeUndefined();
  });

  it('lists everything that is wrong at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SMTP_URL: 'mail.example', LOG_LEVEL: 'loud' });
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
      ]),
    );
    expect((error as ConfigError).message).toMatch(/^Invalid configuration:\n {2}- /);
  });
});
