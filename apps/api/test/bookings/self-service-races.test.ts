// engines: postgres and pglite — a change and a cancel racing on one booking under row locks
import { paymentStatusMessageSchema } from '@qless/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { initiateBody } from '../support/fixtures.js';
import { listen, ORIGIN } from '../support/payment-helpers.js';
import {
  type Booked,
  freshPhone,
  slotIndexAt,
  useSelfServiceApp,
} from '../support/self-service-helpers.js';
import { openSocket } from '../support/ws.js';

describe('self-service under concurrency', () => {
  const s = useSelfServiceApp();
  const { h } = s;

  /** Active bookings (held, confirmed, checked in) on a slot-date. */
  async function occupants(slotId: string, date: string): Promise<string[]> {
    const rows = await h.database.db
      .selectFrom('bookings')
      .select('id')
      .where('slot_id', '=', slotId)
      .where('booking_date', '=', date)
      .where('status', 'in', ['held', 'confirmed', 'checked_in'])
      .execute();
    return rows.map((r) => r.id);
  }

  it('20 reschedules onto the same last seat: exactly one wins, the others keep their seats', async () => {
    const from = s.nextDate();
    const booked: Booked[] = [];
    for (let i = 0; i < 20; i += 1) booked.push(await s.book({ date: from, slotIndex: 20 + i }));
    const target = { slot_id: h.fx.slotIds[slotIndexAt('10:00')] ?? '', date: s.farDate() };
    const answers = await Promise.all(booked.map((b) => s.reschedule(b.bookingId, b.key, target)));
    const won = answers.filter((r) => r.statusCode === 200);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((r) => r.statusCode !== 200)) {
      expect(lost.statusCode).toBe(409);
      expect(lost.json()).toMatchObject({ code: 'SLOT_TAKEN' });
    }
    const winner = won[0]?.json().booking.booking_id as string;
    expect(await occupants(target.slot_id, target.date)).toEqual([winner]);
    for (const b of booked) {
      const here = await occupants(b.slotId, from);
      expect(here).toEqual(b.bookingId === winner ? [] : [b.bookingId]);
    }
    expect(await h.taken(from)).toHaveLength(19);
  });

  it('a reschedule racing a new payment for the same seat: one seat, one of them', async () => {
    const from = s.nextDate();
    const to = s.farDate();
    for (let round = 0; round < 5; round += 1) {
      const b = await s.book({ date: from, slotIndex: round });
      const slotIndex = slotIndexAt('13:00') + round;
      const slotId = h.fx.slotIds[slotIndex] ?? '';
      const [moved, paid] = await Promise.all([
        s.reschedule(b.bookingId, b.key, { slot_id: slotId, date: to }),
        h.initiate(initiateBody(h.fx, { date: to, slotIndex, phone_number: freshPhone() })),
      ]);
      expect([moved.statusCode, paid.statusCode].sort(), `${moved.body} ${paid.body}`).toEqual(
        moved.statusCode === 200 ? [200, 409] : [201, 409],
      );
      const there = await occupants(slotId, to);
      expect(there).toHaveLength(1);
      // The booking always has exactly one seat: the new one or its old one.
      const seats = await h.database.db
        .selectFrom('bookings')
        .select(['slot_id', 'booking_date'])
        .where('id', '=', b.bookingId)
        .where('status', '=', 'confirmed')
        .execute();
      expect(seats).toHaveLength(1);
      expect(there.includes(b.bookingId)).toBe(moved.statusCode === 200);
    }
  });

  it('one booking moved to 8 slots at once ends on exactly one of them', async () => {
    const b = await s.book();
    const to = s.farDate();
    const targets = Array.from({ length: 8 }, (_, i) => h.fx.slotIds[30 + i] ?? '');
    const answers = await Promise.all(
      targets.map((slot_id) => s.reschedule(b.bookingId, b.key, { slot_id, date: to })),
    );
    for (const res of answers) expect([200, 409], res.body).toContain(res.statusCode);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from bookings
      where status in ('held', 'confirmed', 'checked_in') and booking_date = ${to}::date`.execute(
      h.database.db,
    );
    expect(rows[0]?.n).toBe(1);
    expect(await occupants(b.slotId, b.date)).toEqual([]);
    expect(await h.taken(to)).toHaveLength(1);
  });

  it('cancels a pending payment with its key: FAILED at once on the socket, the seat free, a late success refunded', async () => {
    const held = await s.hold({ slotIndex: slotIndexAt('15:00') });
    const host = await listen(h.app);
    const socket = await openSocket(
      `ws://${host}/api/v1/payment/${held.paymentId}/statusSocket`,
      ORIGIN,
    );
    expect(socket.first).toMatchObject({ status: 'PENDING' });
    const messages: unknown[] = [];
    socket.ws.on('message', (data) => messages.push(JSON.parse(String(data))));

    // Not without the booking's key.
    const denied = await s.cancelPayment(held.paymentId, 'not-the-key-of-this-booking-at-all');
    expect(denied.statusCode).toBe(403);
    expect((await h.status(held.paymentId)).status).toBe('PENDING');

    const res = await s.cancelPayment(held.paymentId, held.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(paymentStatusMessageSchema.parse(res.json())).toMatchObject({
      status: 'FAILED',
      failure_code: 'CANCELLED_BY_CUSTOMER',
      ticket: null,
    });
    expect(await h.taken(held.date)).toEqual([]);
    expect(await socket.closed).toBe(1000);
    expect(messages).toEqual([expect.objectContaining({ status: 'FAILED' })]);
    expect((await s.view(held)).payment).toMatchObject({
      status: 'FAILED',
      failure_code: 'CANCELLED_BY_CUSTOMER',
      hold_expires_at: null,
    });

    const again = await s.cancelPayment(held.paymentId, held.key);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'PAYMENT_NOT_PENDING' });
    const unknown = await s.cancelPayment('00000000-0000-4000-8000-000000000009', held.key);
    expect(unknown.statusCode).toBe(404);

    // Someone else takes the freed seat; then the first customer approves on the phone.
    const next = await h.initiate(
      initiateBody(h.fx, {
        date: held.date,
        slotIndex: slotIndexAt('15:00'),
        phone_number: freshPhone(),
      }),
    );
    expect(next.statusCode, next.body).toBe(201);
    const late = await h.callback(held.paymentId, 'SUCCESSFUL');
    expect(late.json()).toMatchObject({ outcome: 'refund_due' });
    const payment = await h.database.db
      .selectFrom('payments')
      .select(['status', 'needs_refund', 'refund_reason', 'failure_code'])
      .where('id', '=', held.paymentId)
      .executeTakeFirstOrThrow();
    expect(payment).toEqual({
      status: 'FAILED',
      needs_refund: true,
      refund_reason: 'PAID_AFTER_FAILURE',
      failure_code: 'CANCELLED_BY_CUSTOMER',
    });
    expect(await occupants(held.slotId, held.date)).toEqual([next.json().payment.booking_id]);
  });

  it('does not cancel a payment that has settled', async () => {
    const b = await s.book();
    const res = await s.cancelPayment(b.paymentId, b.key);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PAYMENT_NOT_PENDING' });
    expect((await s.view(b)).status).toBe('confirmed');
  });
});
