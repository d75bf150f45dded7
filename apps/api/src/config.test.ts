import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults to the embedded database with demo data on port 3000', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, databaseUrl: null, seedDemo: true, corsOrigins: [] });
    expect(c.publicOrigin).toBe('http://localhost:3000');
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('turns demo data off by default on PostgreSQL, and on when asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', SEED_DEMO: 'true' }).seedDemo).toBe(
      true,
    );
  });

  it('lists every bad key at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SEED_DEMO: 'maybe',
        CORS_ORIGINS: 'https://ok.cm, nope',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const key of ['PORT', 'DATABASE_URL', 'SEED_DEMO', 'CORS_ORIGINS'])
      expect(problems).toContain(key);
  });

  it('keeps idle connections after SIGTERM only within the drain bound (decision 028)', () => {
    expect(loadConfig({}).shutdownIdleGraceMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_IDLE_GRACE_MS: '5000' }).shutdownIdleGraceMs).toBe(5000);
    expect(() => loadConfig({ SHUTDOWN_IDLE_GRACE_MS: '9000' })).toThrow(
      /SHUTDOWN_IDLE_GRACE_MS.*2 000 ms of SHUTDOWN_TIMEOUT_MS/,
    );
    expect(
      loadConfig({ SHUTDOWN_IDLE_GRACE_MS: '9000', SHUTDOWN_TIMEOUT_MS: '15000' })
        .shutdownIdleGraceMs,
    ).toBe(9000);
  });

  it('normalizes origins and treats empty values as unset', () => {
    const c = loadConfig({
      PUBLIC_ORIGIN: 'https://qless.cm/',
      CORS_ORIGINS: 'https://a.cm/x, https://b.cm',
      PORT: '',
    });
    expect(c.publicOrigin).toBe('https://qless.cm');
    expect(c.corsOrigins).toEqual(['https://a.cm', 'https://b.cm']);
    expect(c.port).toBe(3000);
  });

  it('never falls back to the simulator in production, and needs Campay credentials', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PAYMENT_PROVIDER/);
    expect(
      loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'simulator' }).payments.provider,
    ).toBe('simulator');
    let error: unknown;
    try {
      loadConfig({ PAYMENT_PROVIDER: 'campay', CAMPAY_USERNAME: 'u' });
    } catch (e) {
      error = e;
    }
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('CAMPAY_PASSWORD');
    expect(problems).toContain('CAMPAY_WEBHOOK_KEY');
    expect(problems).not.toContain('CAMPAY_USERNAME');
  });

  it('takes QLESS_FAKE_NOW under NODE_ENV=test only, as an instant with its offset', () => {
    expect(loadConfig({}).fakeNow).toBeNull();
    expect(
      loadConfig({ NODE_ENV: 'test', QLESS_FAKE_NOW: '2030-05-08T09:30:00+01:00' }).fakeNow,
    ).toEqual(new Date('2030-05-08T08:30:00Z'));
    for (const NODE_ENV of ['development', 'production']) {
      expect(() =>
        loadConfig({
          NODE_ENV,
          PAYMENT_PROVIDER: 'simulator',
          QLESS_FAKE_NOW: '2030-05-08T08:30:00Z',
        }),
      ).toThrow(/QLESS_FAKE_NOW: is for end-to-end tests only/);
    }
    expect(() => loadConfig({ QLESS_FAKE_NOW: '2030-05-08T08:30:00Z' })).toThrow(/QLESS_FAKE_NOW/);
    // A wall time without its offset would mean a different instant on each machine.
    expect(() => loadConfig({ NODE_ENV: 'test', QLESS_FAKE_NOW: '2030-05-08 09:30' })).toThrow(
      /QLESS_FAKE_NOW/,
    );
  });

  it('rejects an unknown time zone', () => {
    expect(() => loadConfig({ DEFAULT_TIME_ZONE: 'Africa/Nowhere' })).toThrow(/DEFAULT_TIME_ZONE/);
  });

  // Before: TRUST_PROXY=true took the leftmost X-Forwarded-For entry, which the client writes.
  it('takes TRUST_PROXY as a hop count or a list of proxies, never "trust everyone"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.10,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.10',
      'loopback',
    ]);
    expect(loadConfig({ TRUST_PROXY: '2001:db8::/32' }).trustProxy).toEqual(['2001:db8::/32']);
    for (const bad of ['true', 'yes', '10.0.0.0/33', 'proxy.example.cm', '11']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/forge its address/);
  });
});
