// engines: postgres and pglite — claims with SKIP LOCKED
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { FixedClock } from '../../src/core/clock.js';
import { openDatabase } from '../../src/db/database.js';
import { describeMailError, smtpSender } from '../../src/modules/mail/mail-transport.js';
import { queueMail } from '../../src/modules/outbox/outbox.repository.js';
import { OutboxWorker, retryDelayMs } from '../../src/modules/outbox/outbox-worker.js';
import { recordingLog } from '../support/recording-log.js';
import { startSmtpCapture } from '../support/smtp-capture.js';
import { createTestApp, PINNED_NOW } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';

const FROM = 'Qless <no-reply@qless.test>';
/** Every log call, so a test can check that no mail body reached the log. */
const { log, text: logged } = recordingLog();

describe('retry delays', () => {
  it('doubles from the base after each failure and stops growing at one hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 30_000))).toEqual([
      30_000, 60_000, 120_000, 240_000,
    ]);
    expect(retryDelayMs(20, 30_000)).toBe(3_600_000);
  });

  it('describes an SMTP failure without the credentials of SMTP_URL or link tokens', () => {
    const err = Object.assign(
      new Error('Invalid login for s3cret-pass: 535 auth failed for mailer-user\nsecond line'),
      { code: 'EAUTH', responseCode: 535 },
    );
    const text = describeMailError(err, 'smtp://mailer-user:s3cret-pass@mail.example.cm:587');
    expect(text).toBe('EAUTH 535 Invalid login for [redacted]: 535 auth failed for [redacted]');
    const token = 'A'.repeat(43);
    expect(describeMailError(new Error(`rejected /#/invite/${token}`), null)).toBe(
      'rejected /#/invite/[redacted]',
    );
    expect(
      describeMailError(
        Object.assign(new Error('Recipient command failed: 550 <ngono@example.cm> unknown'), {
          code: 'EENVELOPE',
        }),
        null,
      ),
    ).toBe('EENVELOPE Recipient command failed: 550 <[address]> unknown');
  });
});

describe('mail outbox', () => {
  // Not useStack: each test starts its own app or workers with the mail settings under test,
  // and a stack's app would sweep the same outbox alongside them.
  let tdb: TestDatabase;
  const clock = new FixedClock(PINNED_NOW);

  beforeAll(async () => {
    tdb = await createTestDatabase(inject('engine'));
  });
  afterAll(async () => {
    await tdb?.cleanup();
  });
  beforeEach(async () => {
    clock.set(PINNED_NOW);
    await tdb.database.db.deleteFrom('outbox').execute();
  });

  const worker = (smtpUrl: string, db = tdb.database.db, maxAttempts = 4) =>
    new OutboxWorker({
      db,
      clock,
      channels: {
        email: { sender: smtpSender(smtpUrl, FROM), maxAttempts, retryBaseMs: 30_000 },
      },
      // Account mail only here: nothing is a booking message.
      prepareBookingMessage: async () => ({ skip: 'not in these tests' }),
      config: { intervalMs: 60_000 },
      log,
    });

  const queue = (to: string, n = 1) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        queueMail(
          tdb.database.db,
          { to, subject: `Hello ${i}`, text: `Body ${i}`, kind: 'test' },
          clock.now(),
        ),
      ),
    );

  const outbox = () =>
    tdb.database.db.selectFrom('outbox').selectAll().orderBy('subject').execute();

  it('with no SMTP server configured, the app leaves mail unsent in the outbox', async () => {
    const { app } = await createTestApp(tdb.database, {
      env: { MAIL_WORKER_INTERVAL_MS: '100' },
    });
    const { worker } = app.messaging;
    if (!worker) throw new Error('no outbox worker');
    const sweeps = vi.spyOn(worker, 'sweep');
    try {
      await queue('nobody@example.cm');
      // A whole sweep begun after the mail was queued: the worker had its chance to send it.
      const queued = sweeps.mock.calls.length;
      await vi.waitFor(() => expect(sweeps.mock.calls.length).toBeGreaterThan(queued), {
        timeout: 5000,
      });
      await sweeps.mock.results[queued]?.value;
      const [row] = await outbox();
      expect(row).toMatchObject({
        status: 'pending',
        sent_at: null,
        attempts: 0,
        last_error: null,
      });
    } finally {
      await app.close();
    }
  });

  it('the app started with SMTP_URL delivers queued mail by itself', async () => {
    const smtp = await startSmtpCapture();
    const { app } = await createTestApp(tdb.database, {
      env: { SMTP_URL: smtp.url, MAIL_FROM: FROM, MAIL_WORKER_INTERVAL_MS: '100' },
    });
    try {
      await queueMail(
        tdb.database.db,
        { to: 'ada@example.cm', subject: 'Welcome', text: 'Line one\nLine two', kind: 'test' },
        clock.now(),
      );
      const mail = await smtp.waitFor('ada@example.cm');
      expect(mail.subject).toBe('Welcome');
      expect(mail.text.trim()).toBe('Line one\nLine two');
      await expect.poll(async () => (await outbox())[0]?.sent_at).toBeInstanceOf(Date);
      const [row] = await outbox();
      expect(row).toMatchObject({
        status: 'sent',
        provider: 'smtp',
        attempts: 1,
        next_attempt_at: null,
        last_error: null,
      });
    } finally {
      await app.close();
      await smtp.close();
    }
  });

  it('two workers sweeping at once send each mail exactly once', async () => {
    const smtp = await startSmtpCapture();
    // On PostgreSQL the second worker has its own connections, as another process would.
    const other = tdb.url
      ? await openDatabase({ databaseUrl: tdb.url, dataDir: null })
      : tdb.database;
    const a = worker(smtp.url);
    const b = worker(smtp.url, other.db);
    try {
      await queue('many@example.cm', 30);
      // Batches of 20: a few concurrent rounds drain 30 mails between the two.
      for (let round = 0; round < 3; round += 1) await Promise.all([a.sweep(), b.sweep()]);
      expect(smtp.messages).toHaveLength(30);
      const subjects = smtp.messages.map((m) => m.subject);
      expect(new Set(subjects).size).toBe(30);
      const rows = await outbox();
      expect(rows.every((r) => r.sent_at !== null && r.attempts === 1)).toBe(true);
    } finally {
      await a.stop();
      await b.stop();
      if (other !== tdb.database) await other.close();
      await smtp.close();
    }
  });

  it('while the SMTP server is down, retries with growing waits, then sends once it is back', async () => {
    // A port with nothing listening on it (the server is started there later).
    const probe = await startSmtpCapture();
    const port = probe.port;
    await probe.close();
    const url = `smtp://127.0.0.1:${port}`;
    const w = worker(url);
    let smtp: Awaited<ReturnType<typeof startSmtpCapture>> | null = null;
    try {
      await queue('later@example.cm');
      expect(await w.sweep()).toEqual({ sent: 0, failed: 1, gaveUp: 0, skipped: 0 });
      let [row] = await outbox();
      expect(row?.attempts).toBe(1);
      expect(row?.last_error).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
      expect(row?.last_error).not.toContain('Body');
      expect(logged()).toContain('message delivery failed; will retry');
      expect(logged()).not.toContain('Body');
      expect(row?.next_attempt_at?.toISOString()).toBe('2026-03-04T08:30:30.000Z');

      // Not due yet: nothing is tried.
      clock.advance(29_000);
      expect(await w.sweep()).toEqual({ sent: 0, failed: 0, gaveUp: 0, skipped: 0 });
      clock.advance(1_000);
      expect(await w.sweep()).toEqual({ sent: 0, failed: 1, gaveUp: 0, skipped: 0 });
      [row] = await outbox();
      expect(row?.attempts).toBe(2);
      // The second wait is twice the first.
      expect(row?.next_attempt_at?.getTime()).toBe(clock.now().getTime() + 60_000);

      smtp = await startSmtpCapture(port);
      clock.advance(60_000);
      expect(await w.sweep()).toEqual({ sent: 1, failed: 0, gaveUp: 0, skipped: 0 });
      expect(smtp.messages.map((m) => m.rcpt)).toEqual([['later@example.cm']]);
      [row] = await outbox();
      expect(row).toMatchObject({ attempts: 3, next_attempt_at: null, last_error: null });
      expect(row?.sent_at).toBeInstanceOf(Date);
      // Sent mail is not sent again.
      clock.advance(3_600_000);
      expect(await w.sweep()).toEqual({ sent: 0, failed: 0, gaveUp: 0, skipped: 0 });
      expect(smtp.messages).toHaveLength(1);
    } finally {
      await w.stop();
      await smtp?.close();
    }
  });

  it('gives a mail up after the last attempt; it stays in the outbox, unsent, with its error', async () => {
    const probe = await startSmtpCapture();
    await probe.close();
    const w = worker(`smtp://127.0.0.1:${probe.port}`, tdb.database.db, 3);
    try {
      await queue('never@example.cm');
      const results = [];
      for (let i = 0; i < 4; i += 1) {
        results.push(await w.sweep());
        clock.advance(3_600_000);
      }
      expect(results).toEqual([
        { sent: 0, failed: 1, gaveUp: 0, skipped: 0 },
        { sent: 0, failed: 1, gaveUp: 0, skipped: 0 },
        { sent: 0, failed: 0, gaveUp: 1, skipped: 0 },
        { sent: 0, failed: 0, gaveUp: 0, skipped: 0 },
      ]);
      const [row] = await outbox();
      expect(row).toMatchObject({
        status: 'failed',
        attempts: 3,
        sent_at: null,
        next_attempt_at: null,
      });
      expect(row?.last_error).toBeTruthy();
    } finally {
      await w.stop();
    }
  });

  it('a mail claimed by a process that died is tried again once its lease has run out', async () => {
    const smtp = await startSmtpCapture();
    const w = worker(smtp.url);
    try {
      await queue('lease@example.cm');
      // Claimed (attempt counted, leased) but never sent: the process died.
      await tdb.database.db
        .updateTable('outbox')
        .set({ attempts: 1, next_attempt_at: new Date(clock.now().getTime() + 300_000) })
        .execute();
      expect((await w.sweep()).sent).toBe(0);
      clock.advance(300_000);
      expect((await w.sweep()).sent).toBe(1);
      expect(smtp.messages).toHaveLength(1);
    } finally {
      await w.stop();
      await smtp.close();
    }
  });
});
