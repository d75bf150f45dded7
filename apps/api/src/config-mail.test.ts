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

describe('SMS and outbox configuration', () => {
  it('shows an SMS number for joining only where one is known (decision 136)', () => {
    expect(loadConfig({ SMS_INBOUND_NUMBER: ' 8 180 ' }).sms.inboundNumber).toBe('8 180');
    const gateway = {
      SMS_PROVIDER: 'africastalking',
      AFRICASTALKING_USERNAME: 'qless',
      AFRICASTALKING_API_KEY: 'k'.repeat(32),
    };
    expect(loadConfig(gateway).sms.inboundNumber).toBeNull();
    expect(loadConfig({ ...gateway, SMS_INBOUND_NUMBER: '8180' }).sms.inboundNumber).toBe('8180');
  });

  it('sends SMS to the simulator by default, and runs the outbox worker and reminders', () => {
    const c = loadConfig({});
    expect(c.sms).toEqual({
      provider: 'simulator',
      africastalking: null,
      // The number the board shows for joining by SMS (decision 136): the simulator's.
      inboundNumber: '8080',
      timeoutMs: 10_000,
      maxAttempts: 6,
      retryBaseMs: 60_000,
      // The messages-per-recipient limit (decision 140).
      perRecipientPerDay: 15,
      priceXaf: 35,
    });
    expect(c.outbox).toEqual({
      workerEnabled: true,
      workerIntervalMs: 5000,
      batchSize: 20,
      remindersEnabled: true,
      reminderIntervalMs: 60_000,
    });
  });

  it("reads Africa's Talking settings, without a trailing slash on its URL", () => {
    const c = loadConfig({
      SMS_PROVIDER: 'africastalking',
      AFRICASTALKING_BASE_URL: 'https://api.sandbox.africastalking.com/',
      AFRICASTALKING_USERNAME: 'sandbox',
      AFRICASTALKING_API_KEY: 'atsk_0123456789abcdef',
      AFRICASTALKING_SENDER_ID: 'QLESS',
      SMS_TIMEOUT_MS: '4000',
    });
    expect(c.sms).toMatchObject({
      provider: 'africastalking',
      timeoutMs: 4000,
      africastalking: {
        baseUrl: 'https://api.sandbox.africastalking.com',
        username: 'sandbox',
        apiKey: 'atsk_0123456789abcdef',
        senderId: 'QLESS',
      },
    });
    expect(loadConfig({}).sms.africastalking).toBeNull();
  });

  it("fails fast when Africa's Talking is chosen without its username or API key, never echoing the key", () => {
    const missing = problems({ SMS_PROVIDER: 'africastalking' });
    expect(missing).toContain('AFRICASTALKING_USERNAME: required when SMS_PROVIDER=africastalking');
    expect(missing).toContain('AFRICASTALKING_API_KEY: required when SMS_PROVIDER=africastalking');
    const noKey = problems({ SMS_PROVIDER: 'africastalking', AFRICASTALKING_USERNAME: 'qless' });
    expect(noKey).toContain('AFRICASTALKING_API_KEY');
    expect(noKey).not.toContain('AFRICASTALKING_USERNAME');
    const shortKey = problems({
      SMS_PROVIDER: 'africastalking',
      AFRICASTALKING_USERNAME: 'qless',
      AFRICASTALKING_API_KEY: 'k3y',
    });
    expect(shortKey).toContain('AFRICASTALKING_API_KEY');
    expect(shortKey).not.toContain('k3y');
    expect(problems({ SMS_PROVIDER: 'twilio' })).toContain('SMS_PROVIDER');
  });

  it('refuses a plain-http gateway URL except on this machine, and a sender id too long', () => {
    expect(problems({ AFRICASTALKING_BASE_URL: 'http://api.africastalking.com' })).toContain(
      'AFRICASTALKING_BASE_URL',
    );
    expect(loadConfig({ AFRICASTALKING_BASE_URL: 'http://127.0.0.1:4020' }).sms.provider).toBe(
      'simulator',
    );
    expect(problems({ AFRICASTALKING_SENDER_ID: 'QLESS-CAMEROON' })).toContain(
      'AFRICASTALKING_SENDER_ID',
    );
    expect(problems({ SMS_TIMEOUT_MS: '120000' })).toContain('SMS_TIMEOUT_MS');
  });

  it('reads the outbox worker settings, also under their former MAIL_WORKER_* names', () => {
    expect(
      loadConfig({ MAIL_WORKER_ENABLED: 'false', MAIL_WORKER_INTERVAL_MS: '250' }).outbox,
    ).toMatchObject({ workerEnabled: false, workerIntervalMs: 250 });
    expect(
      loadConfig({
        OUTBOX_WORKER_ENABLED: 'true',
        MAIL_WORKER_ENABLED: 'false',
        OUTBOX_WORKER_INTERVAL_MS: '300',
        REMINDERS_ENABLED: 'off',
        REMINDER_SWEEP_INTERVAL_MS: '1000',
      }).outbox,
    ).toMatchObject({
      workerEnabled: true,
      workerIntervalMs: 300,
      remindersEnabled: false,
      reminderIntervalMs: 1000,
    });
  });
});
