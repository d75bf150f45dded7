import { describe, expect, it } from 'vitest';
import { queueBookingMessages } from '../../src/modules/messages/booking-messages.js';
import { signedIn } from '../support/auth-helpers.js';
import { initiateBody } from '../support/fixtures.js';
import { bookAndPay, outboxOf } from '../support/messages-helpers.js';
import { useSimulatorApp } from '../support/simulator-harness.js';

/**
 * Cancellation and reschedule messages. The customer's routes are another part of issue 10;
 * here the change is made in a transaction as those routes make it, with
 * queueBookingMessages called in it.
 */
describe('cancellation and reschedule messages', () => {
  const h = useSimulatorApp({
    env: { OUTBOX_WORKER_INTERVAL_MS: '3600000', REMINDER_SWEEP_INTERVAL_MS: '3600000' },
  });
  const sweeps = () => {
    const { worker, reminders } = h.app.messaging;
    if (!worker || !reminders) throw new Error('no sweeps');
    return { worker, reminders };
  };
  const smsOf = async (bookingId: string, kind: string) =>
    (await outboxOf(h.database, bookingId)).filter((r) => r.kind === kind && r.channel === 'sms');

  async function reschedule(bookingId: string, date: string, slotIndex: number) {
    const now = h.clock.now();
    await h.database.db.transaction().execute(async (trx) => {
      const b = await trx
        .selectFrom('bookings')
        .select(['booking_date', 'slot_id', 'reschedule_count'])
        .where('id', '=', bookingId)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('bookings')
        .set({
          booking_date: date,
          slot_id: h.fx.slotIds[slotIndex] as string,
          rescheduled_at: now,
          rescheduled_from_date: b.booking_date,
          rescheduled_from_slot_id: b.slot_id,
          reschedule_count: b.reschedule_count + 1,
          updated_at: now,
        })
        .where('id', '=', bookingId)
        .execute();
      await queueBookingMessages(trx, bookingId, 'reschedule', now);
    });
  }

  async function cancel(bookingId: string) {
    const now = h.clock.now();
    await h.database.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('bookings')
        .set({ status: 'cancelled', cancelled_by: 'customer', status_changed_at: now })
        .where('id', '=', bookingId)
        .execute();
      await queueBookingMessages(trx, bookingId, 'cancellation', now);
      // Told twice in one change (a retried call): still one message per channel.
      await queueBookingMessages(trx, bookingId, 'cancellation', now);
    });
  }

  it('a rescheduled booking is told its new time and reminded of it only', async () => {
    h.clock.set('2026-03-04T08:30:00Z');
    const { bookingId } = await bookAndPay(h, { date: '2026-03-08', slotIndex: 10 }); // Sun 09:30
    h.clock.set('2026-03-07T17:00:00Z'); // 18:00 in Douala: the old time's day-before reminder
    expect(await sweeps().reminders.sweep()).toBe(2);

    h.clock.set('2026-03-07T17:30:00Z');
    await reschedule(bookingId, '2026-03-09', 16); // Monday 11:00
    const moved = await smsOf(bookingId, 'booking_reschedule');
    expect(moved.map((r) => r.dedupe_key)).toEqual([
      `booking:${bookingId}:reschedule:1.2026-03-09T11:00:sms`,
    ]);
    // Sent now: the old time's reminder is skipped, the new time announced.
    await sweeps().worker.sweep();
    const [oldReminder] = await smsOf(bookingId, 'booking_reminder_day_before');
    expect(oldReminder).toMatchObject({ status: 'skipped', last_error: 'booking moved since' });
    const [announcement] = await smsOf(bookingId, 'booking_reschedule');
    expect(announcement?.status).toBe('sent');
    expect(announcement?.text_body).toContain(
      'Qless: booking moved. New time: Mon, 9 Mar at 11:00. Guichet Unique, Counter 15.',
    );

    // The old time's 2-hour reminder never comes; the new time's reminders do.
    h.clock.set('2026-03-08T06:30:00Z');
    expect(await sweeps().reminders.sweep()).toBe(0);
    h.clock.set('2026-03-08T17:00:00Z');
    expect(await sweeps().reminders.sweep()).toBe(2);
    h.clock.set('2026-03-09T08:00:00Z'); // 09:00 in Douala, 2 hours before 11:00
    expect(await sweeps().reminders.sweep()).toBe(2);
    const reminders = (await outboxOf(h.database, bookingId)).filter(
      (r) => r.kind.startsWith('booking_reminder') && r.channel === 'sms',
    );
    expect(reminders.map((r) => `${r.kind} ${r.occurrence}`).sort()).toEqual([
      'booking_reminder_2h 1.2026-03-09T11:00',
      'booking_reminder_day_before 0.2026-03-08T09:30',
      'booking_reminder_day_before 1.2026-03-09T11:00',
    ]);

    // Moved again before the first announcement went out: only the latest is sent.
    h.clock.set('2026-03-09T08:10:00Z');
    await reschedule(bookingId, '2026-03-10', 12);
    await reschedule(bookingId, '2026-03-10', 14);
    const result = await sweeps().worker.sweep();
    expect(result.skipped).toBeGreaterThanOrEqual(1);
    const announcements = await smsOf(bookingId, 'booking_reschedule');
    expect(announcements.map((r) => `${r.occurrence} ${r.status}`).sort()).toEqual([
      '1.2026-03-09T11:00 sent',
      '2.2026-03-10T10:00 skipped',
      '3.2026-03-10T10:30 sent',
    ]);
  });

  it('a cancelled booking is told so in its language, once, and gets no reminder', async () => {
    h.clock.set('2026-03-04T08:30:00Z');
    const { bookingId } = await bookAndPay(h, {
      date: '2026-03-11',
      slotIndex: 10,
      locale: 'fr',
      phone_number: '655 44 33 22',
    });
    h.clock.set('2026-03-10T17:00:00Z');
    expect(await sweeps().reminders.sweep()).toBe(2);
    h.clock.set('2026-03-10T17:10:00Z');
    await cancel(bookingId);
    const cancellations = (await outboxOf(h.database, bookingId)).filter(
      (r) => r.kind === 'booking_cancellation',
    );
    expect(cancellations.map((r) => r.channel)).toEqual(['email', 'sms']);

    await sweeps().worker.sweep();
    const [reminder] = await smsOf(bookingId, 'booking_reminder_day_before');
    expect(reminder).toMatchObject({ status: 'skipped', last_error: 'booking is cancelled' });
    const [sms] = await smsOf(bookingId, 'booking_cancellation');
    expect(sms?.status).toBe('sent');
    expect(sms?.text_body).toMatch(
      /^Qless : réservation annulée\. Guichet Unique, Counter 15, mer\. 11 mars à 09:30\. Détails : http:\/\/qless\.test\/t\/[0-9A-Z]{12}$/,
    );

    h.clock.set('2026-03-11T06:30:00Z');
    expect(await sweeps().reminders.sweep()).toBe(0);
    // Told again later (another process, a retry): nothing new.
    await h.database.db
      .transaction()
      .execute((trx) => queueBookingMessages(trx, bookingId, 'cancellation', h.clock.now()));
    expect(
      (await outboxOf(h.database, bookingId)).filter((r) => r.kind === 'booking_cancellation'),
    ).toHaveLength(2);
  });

  it('the organization cancelling a paid booking at the counter tells the customer', async () => {
    h.clock.set('2026-03-04T08:30:00Z');
    const admin = await signedIn(h.app, h.database.db, {
      email: 'admin@guichet-messages.cm',
      role: 'org_admin',
      organizationId: h.fx.orgId,
    });
    const { bookingId } = await bookAndPay(h, { date: '2026-03-12', slotIndex: 10 });
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/v1/organization/bookings/${bookingId}/cancel`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    await sweeps().worker.sweep();
    const [sms] = await smsOf(bookingId, 'booking_cancellation');
    expect(sms?.text_body).toContain(
      'Qless: booking cancelled by the organization. Guichet Unique, Counter 15, Thu, 12 Mar at 09:30.',
    );
    // A hold cancelled at the counter was never announced: nothing is sent about it.
    const held = await h.initiate(initiateBody(h.fx, { date: '2026-03-12', slotIndex: 11 }));
    const heldBooking = held.json().payment.booking_id as string;
    expect(
      (
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/organization/bookings/${heldBooking}/cancel`,
          headers: admin.headers,
        })
      ).statusCode,
    ).toBe(200);
    expect(await outboxOf(h.database, heldBooking)).toEqual([]);
  });
});
