import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function problems(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems.join('\n');
    throw e;
  }
  return '';
}

describe('mail configuration', () => {
  it('has no SMTP server by default: mail waits in the outbox', () => {
    expect(loadConfig({}).mail).toEqual({
      smtpUrl: null,
      from: null,
      workerEnabled: true,
      workerIntervalMs: 5000,
      maxAttempts: 8,
      retryBaseMs: 30_000,
    });
  });

  it('reads SMTP_URL and MAIL_FROM, in both forms of sender', () => {
    const c = loadConfig({
      SMTP_URL: 'smtps://u:p@mail.example.cm:465',
      MAIL_FROM: 'Qless <no-reply@qless.cm>',
    });
    expect(c.mail).toMatchObject({
      smtpUrl: 'smtps://u:p@mail.example.cm:465',
      from: 'Qless <no-reply@qless.cm>',
    });
    expect(
      loadConfig({ SMTP_URL: 'smtp://mail.example.cm', MAIL_FROM: 'a@qless.cm' }).mail.from,
    ).toBe('a@qless.cm');
  });

  it('requires MAIL_FROM with SMTP_URL, and refuses what is not an SMTP URL without echoing it', () => {
    expect(problems({ SMTP_URL: 'smtp://mail.example.cm' })).toContain(
      'MAIL_FROM: required when SMTP_URL',
    );
    const bad = problems({
      SMTP_URL: 'http://user:hunter2secret@mail.example.cm',
      MAIL_FROM: 'a@b.cm',
    });
    expect(bad).toContain('SMTP_URL');
    expect(bad).not.toContain('hunter2secret');
    expect(problems({ SMTP_URL: 'not a url :(', MAIL_FROM: 'a@b.cm' })).toContain('SMTP_URL');
    expect(problems({ SMTP_URL: 'smtp://m.cm', MAIL_FROM: 'nobody' })).toContain('MAIL_FROM');
    expect(problems({ MAIL_WORKER_INTERVAL_MS: '5' })).toContain('MAIL_WORKER_INTERVAL_MS');
  });
});
