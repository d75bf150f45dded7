import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { ReminderSweep } from '../../src/modules/messages/reminders.js';
import type { OutboxWorker } from '../../src/modules/outbox/outbox-worker.js';
import { bookAndPay, outboxOf } from '../support/messages-helpers.js';
import { NO_LIMITS } from '../support/payment-helpers.js';
import { recordingLog } from '../support/recording-log.js';
import { useSimulatorApp } from '../support/simulator-harness.js';
import { startSmtpCapture } from '../support/smtp-capture.js';
import { createTestApp } from '../support/test-app.js';

/**
 * Reminders on the pinned clock. The organization is in Douala (UTC+1) while the suite runs
 * in Kiritimati (UTC+14): a reminder that read the process's zone would fall on the wrong day.
 */
// Running before the block is collected: useSimulatorApp takes its env as it is called.
const smtp = await startSmtpCapture();
afterAll(async () => {
  await smtp.close();
});

describe('reminders', () => {
  const env: Record<string, string> = {
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Qless <no-reply@qless.test>',
    // Every sweep is made by the tests, on the pinned clock.
    OUTBOX_WORKER_INTERVAL_MS: '3600000',
    REMINDER_SWEEP_INTERVAL_MS: '3600000',
  };
  const h = useSimulatorApp({ env });

  /** A second process: its own app on its own connections (PostgreSQL), or a second sweeper and worker in this process (PGlite, a single process by design). */
  let other: {
    app: FastifyInstance | null;
    database: Database | null;
    reminders: ReminderSweep;
    worker: OutboxWorker;
  };
  beforeAll(async () => {
    if (h.url) {
      const database = await openDatabase({ databaseUrl: h.url, dataDir: null });
      const { app } = await createTestApp(database, {
        clock: h.clock,
        env: { ...NO_LIMITS, ...env },
      });
      const { reminders, worker } = app.messaging;
      if (!reminders || !worker) throw new Error('second process without sweeps');
      other = { app, database, reminders, worker };
    } else {
      const { worker } = h.app.messaging;
      if (!worker) throw new Error('no worker');
      const reminders = new ReminderSweep({
        db: h.database.db,
        clock: h.clock,
        intervalMs: 3_600_000,
        log: recordingLog().log,
      });
      // PGlite serves one process; its two workers share the app's (they claim with SKIP LOCKED).
      other = { app: null, database: null, reminders, worker };
    }
  });
  afterAll(async () => {
    await other?.app?.close();
    await other?.database?.close();
  });

  const mine = () => {
    const { reminders, worker } = h.app.messaging;
    if (!reminders || !worker) throw new Error('no sweeps');
    return { reminders, worker };
  };
  /** Both processes sweep for reminders at the same moment; answers how many rows were added. */
  const sweepBoth = async () => {
    const [a, b] = await Promise.all([mine().reminders.sweep(), other.reminders.sweep()]);
    return a + b;
  };
  const reminderRows = async (bookingId: string) =>
    (await outboxOf(h.database, bookingId)).filter((r) => r.kind.startsWith('booking_reminder'));

  it('queues each reminder once, at its instant on the organization’s clock, with two processes sweeping', async () => {
    // Thursday 5 March, 09:30 in Douala = 08:30 UTC; booked on Wednesday 4 March, 09:30.
    const { bookingId } = await bookAndPay(h, { date: '2026-03-05', slotIndex: 10 });

    h.clock.set('2026-03-04T16:59:59Z');
    expect(await sweepBoth()).toBe(0);
    h.clock.set('2026-03-04T17:00:00Z'); // 18:00 in Douala, the day before
    expect(await sweepBoth()).toBe(2);
    expect(await sweepBoth()).toBe(0);
    let rows = await reminderRows(bookingId);
    expect(rows.map((r) => [r.kind, r.channel, r.dedupe_key])).toEqual([
      [
        'booking_reminder_day_before',
        'email',
        `booking:${bookingId}:reminder_day_before:0.2026-03-05T09:30:email`,
      ],
      [
        'booking_reminder_day_before',
        'sms',
        `booking:${bookingId}:reminder_day_before:0.2026-03-05T09:30:sms`,
      ],
    ]);

    // Two workers at once: each message goes out once.
    const [wa, wb] = await Promise.all([mine().worker.sweep(), other.worker.sweep()]);
    expect(wa.sent + wb.sent).toBeGreaterThanOrEqual(2);
    rows = await reminderRows(bookingId);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    expect(rows.find((r) => r.channel === 'sms')?.text_body).toContain(
      'Qless reminder: Guichet Unique, Counter 15, tomorrow, Thu, 5 Mar at 09:30.',
    );

    h.clock.set('2026-03-05T06:29:59Z');
    expect(await sweepBoth()).toBe(0);
    h.clock.set('2026-03-05T06:30:00Z'); // 07:30 in Douala, 2 hours before
    expect(await sweepBoth()).toBe(2);
    h.clock.set('2026-03-05T08:00:00Z');
    expect(await sweepBoth()).toBe(0);
    await Promise.all([mine().worker.sweep(), other.worker.sweep()]);
    rows = await reminderRows(bookingId);
    expect(rows.map((r) => [r.kind, r.channel, r.status])).toEqual([
      ['booking_reminder_2h', 'email', 'sent'],
      ['booking_reminder_2h', 'sms', 'sent'],
      ['booking_reminder_day_before', 'email', 'sent'],
      ['booking_reminder_day_before', 'sms', 'sent'],
    ]);
    expect(rows[1]?.text_body).toContain('today, Thu, 5 Mar at 09:30.');
    const mails = smtp.messages.filter((m) => m.rcpt.includes('ngono.marie@example.com'));
    expect(mails.map((m) => m.subject).filter((s) => s.startsWith('Reminder'))).toEqual([
      'Reminder: Guichet Unique, tomorrow, Thu, 5 Mar at 09:30',
      'Reminder: Guichet Unique, today, Thu, 5 Mar at 09:30',
    ]);

    h.clock.set('2026-03-05T08:30:00Z'); // the slot begins: nothing more
    expect(await sweepBoth()).toBe(0);
    expect(await reminderRows(bookingId)).toHaveLength(4);
  });

  it('sends no reminder whose time had passed when the booking was confirmed', async () => {
    // Booked on Friday 6 March at 08:00 in Douala (07:00 UTC) for the same morning.
    h.clock.set('2026-03-06T07:00:00Z');
    const late = await bookAndPay(h, { date: '2026-03-06', slotIndex: 11 }); // 09:45: 2 h before was 07:45
    const onTime = await bookAndPay(h, {
      date: '2026-03-06',
      slotIndex: 12, // 10:00: 2 h before is 08:00, the very minute it was booked
      phone_number: '677 55 44 33',
    });
    expect(await sweepBoth()).toBe(2);
    expect((await reminderRows(onTime.bookingId)).map((r) => [r.kind, r.channel])).toEqual([
      ['booking_reminder_2h', 'email'],
      ['booking_reminder_2h', 'sms'],
    ]);
    for (const at of ['2026-03-06T07:30:00Z', '2026-03-06T08:44:00Z']) {
      h.clock.set(at);
      expect(await sweepBoth()).toBe(0);
    }
    expect(await reminderRows(late.bookingId)).toEqual([]);
  });

  it('a reminder that comes due while the sweeps were stopped goes out late, the day-before one only until the 2-hour one is due', async () => {
    h.clock.set('2026-03-06T12:00:00Z');
    const { bookingId } = await bookAndPay(h, { date: '2026-03-08', slotIndex: 20 }); // Sunday 12:00
    // No sweep ran from Saturday 17:00 UTC (18:00 in Douala) to 09:30 UTC on Sunday.
    h.clock.set('2026-03-08T09:30:00Z');
    expect(await sweepBoth()).toBe(2);
    expect((await reminderRows(bookingId)).map((r) => r.kind)).toEqual([
      'booking_reminder_2h',
      'booking_reminder_2h',
    ]);
  });

  it('a day-before reminder held over quiet hours gives way to the 2-hour one when both are due', async () => {
    h.clock.set('2026-03-09T12:00:00Z');
    // Wednesday 08:00 in Douala: its 2-hour reminder is due at 06:00, held to 07:00.
    const { bookingId } = await bookAndPay(h, { date: '2026-03-11', slotIndex: 4 });
    // No sweep from Tuesday 18:00 to 21:30 (Douala): the day-before one is queued late, and
    // held to 07:00 (quiet hours, decision 140), when the 2-hour one is due too.
    h.clock.set('2026-03-10T20:30:00Z');
    await mine().reminders.sweep();
    const [dayBefore] = await reminderRows(bookingId);
    expect(dayBefore?.kind).toBe('booking_reminder_day_before');
    expect(dayBefore?.next_attempt_at?.toISOString()).toBe('2026-03-11T06:00:00.000Z');
    h.clock.set('2026-03-11T06:00:00Z');
    await mine().reminders.sweep();
    await mine().worker.sweep();
    const rows = await reminderRows(bookingId);
    const sms = rows.filter((r) => r.channel === 'sms');
    expect(sms.map((r) => [r.kind, r.status, r.last_error])).toEqual([
      ['booking_reminder_2h', 'sent', null],
      ['booking_reminder_day_before', 'skipped', 'the 2-hour reminder is due'],
    ]);
  });
});
