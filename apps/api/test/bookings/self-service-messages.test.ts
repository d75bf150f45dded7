import { describe, expect, it, vi } from 'vitest';
import { signedIn } from '../support/auth-helpers.js';
import { slotIndexAt, useSelfServiceApp } from '../support/self-service-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

/** What the messages module was asked to queue, and bookings for which queueing fails. */
const queued = vi.hoisted(() => ({
  calls: [] as { bookingId: string; event: string; now: string; inTransaction: boolean }[],
  failFor: new Set<string>(),
}));

vi.mock('../../src/modules/messages/booking-messages.js', () => ({
  queueBookingMessages: async (
    trx: { isTransaction?: boolean },
    bookingId: string,
    event: string,
    now: Date,
  ) => {
    queued.calls.push({
      bookingId,
      event,
      now: now.toISOString(),
      inTransaction: trx.isTransaction === true,
    });
    if (queued.failFor.has(bookingId)) throw new Error('the outbox is unavailable');
  },
}));

describe('messages about a customer’s change', () => {
  const s = useSelfServiceApp();
  const { h } = s;
  const callsFor = (id: string) =>
    queued.calls.filter((c) => c.bookingId === id).map(({ bookingId: _id, ...c }) => c);
  /** Every paid booking was first told of its confirmation, when its payment settled. */
  const confirmed = {
    event: 'confirmation',
    now: new Date(PINNED_NOW).toISOString(),
    inTransaction: true,
  };
  const status = async (id: string) =>
    (
      await h.database.db
        .selectFrom('bookings')
        .select(['status', 'slot_id', 'booking_date'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;

  it('queues a cancellation and a reschedule in the transaction of the change', async () => {
    const cancelled = await s.book();
    expect((await s.cancel(cancelled.bookingId, cancelled.key)).statusCode).toBe(200);
    // A repeated cancel changes nothing and tells nobody again.
    expect((await s.cancel(cancelled.bookingId, cancelled.key)).statusCode).toBe(200);
    expect(callsFor(cancelled.bookingId)).toEqual([
      confirmed,
      { event: 'cancellation', now: new Date(PINNED_NOW).toISOString(), inTransaction: true },
    ]);
    const moved = await s.book();
    const res = await s.reschedule(moved.bookingId, moved.key, {
      slot_id: h.fx.slotIds[slotIndexAt('16:00')],
      date: s.farDate(),
    });
    expect(res.statusCode).toBe(200);
    expect(callsFor(moved.bookingId)).toEqual([
      confirmed,
      { event: 'reschedule', now: new Date(PINNED_NOW).toISOString(), inTransaction: true },
    ]);
  });

  it('tells the customer when the organization cancels a paid booking (not an unpaid hold)', async () => {
    const admin = await signedIn(h.app, h.database.db, {
      email: `admin-messages@guichet.cm`,
      role: 'org_admin',
      organizationId: h.fx.orgId,
    });
    const paid = await s.book();
    const held = await s.hold();
    for (const b of [paid, held]) {
      const res = await h.app.inject({
        method: 'POST',
        url: `/api/v1/organization/bookings/${b.bookingId}/cancel`,
        headers: admin.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(callsFor(paid.bookingId)).toEqual([
      confirmed,
      expect.objectContaining({ event: 'cancellation', inTransaction: true }),
    ]);
    expect(callsFor(held.bookingId)).toEqual([]);
  });

  it('changes nothing when its message cannot be queued', async () => {
    const b = await s.book({ slotIndex: slotIndexAt('10:00') });
    queued.failFor.add(b.bookingId);
    try {
      expect((await s.cancel(b.bookingId, b.key)).statusCode).toBe(500);
      expect(await status(b.bookingId)).toBe('confirmed');
      expect(await h.taken(b.date)).toEqual([b.slotId]);
      const to = s.farDate();
      const move = await s.reschedule(b.bookingId, b.key, {
        slot_id: h.fx.slotIds[slotIndexAt('16:00')],
        date: to,
      });
      expect(move.statusCode).toBe(500);
      expect(await h.taken(b.date)).toEqual([b.slotId]);
      expect(await h.taken(to)).toEqual([]);
    } finally {
      queued.failFor.delete(b.bookingId);
    }
  });
});
