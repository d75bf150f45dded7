import { ticketPageUrl } from '@qless/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../support/auth-helpers.js';
import { initiateBody } from '../support/fixtures.js';
import { slotIndexAt, useSelfServiceApp } from '../support/self-service-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

type Headers = { authorization: string };

describe('a customer cancelling and rescheduling', () => {
  const s = useSelfServiceApp();
  const { h } = s;
  let admin: Headers;
  let staff: Headers;
  const at10 = slotIndexAt('10:00');
  const at1130 = slotIndexAt('11:30');
  /** Sets the clock to a wall time in Douala (UTC+1). */
  const at = (date: string, hhmm: string) => h.clock.set(`${date}T${hhmm}:00+01:00`);

  beforeAll(async () => {
    const db = h.database.db;
    admin = (
      await signedIn(h.app, db, {
        email: `admin@guichet.cm`,
        role: 'org_admin',
        organizationId: h.fx.orgId,
      })
    ).headers;
    staff = (
      await signedIn(h.app, db, {
        email: `staff@guichet.cm`,
        role: 'staff',
        organizationId: h.fx.orgId,
      })
    ).headers;
  });

  const row = (id: string) =>
    h.database.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('cancels a confirmed booking: the seat is free at once, and a repeat answers the same', async () => {
    const b = await s.book({ slotIndex: at10 });
    expect(await h.taken(b.date)).toEqual([b.slotId]);
    const res = await s.cancel(b.bookingId, b.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().booking).toMatchObject({
      status: 'cancelled',
      cancelled_by: 'customer',
      change_blocked: 'NOT_CONFIRMED',
      ticket: null,
      code: b.code,
    });
    expect(await h.taken(b.date)).toEqual([]);
    const before = await row(b.bookingId);
    expect(before).toMatchObject({ status: 'cancelled', cancelled_by: 'customer' });
    const again = await s.cancel(b.bookingId, b.key);
    expect(again.statusCode).toBe(200);
    expect(again.json().booking).toMatchObject({ status: 'cancelled', cancelled_by: 'customer' });
    expect(await row(b.bookingId)).toEqual(before);
    // Someone else may book the seat now.
    const other = await h.initiate(
      initiateBody(h.fx, { date: b.date, slotIndex: at10, phone_number: '+237677555111' }),
    );
    expect(other.statusCode, other.body).toBe(201);
  });

  it('keeps to the organization’s own cut-off, to the minute', async () => {
    await s.setCutoff(30);
    try {
      const early = await s.book({ slotIndex: at10 });
      const late = await s.book({ slotIndex: at10 });
      const exact = await s.book({ slotIndex: at10 });
      expect((await s.view(late)).change_deadline).toBe(`${late.date}T08:30:00.000Z`);
      at(early.date, '09:29');
      expect((await s.view(early)).change_blocked).toBeNull();
      expect((await s.cancel(early.bookingId, early.key)).statusCode).toBe(200);
      for (const [b, time] of [
        [late, '09:31'],
        [exact, '09:30'],
      ] as const) {
        at(b.date, time);
        expect((await s.view(b)).change_blocked).toBe('PAST_CUTOFF');
        const before = await s.snapshot();
        const cancel = await s.cancel(b.bookingId, b.key);
        expect(cancel.statusCode).toBe(409);
        expect(cancel.json()).toMatchObject({ code: 'CHANGE_PAST_CUTOFF' });
        const move = await s.reschedule(b.bookingId, b.key, {
          slot_id: h.fx.slotIds[at1130],
          date: b.date,
        });
        expect(move.json()).toMatchObject({ code: 'CHANGE_PAST_CUTOFF' });
        expect(await s.snapshot()).toBe(before);
      }
      // The default cut-off (2 hours) is back once the organization sets it back.
      await s.setCutoff(120);
      at(late.date, '07:59');
      expect((await s.view(late)).change_blocked).toBeNull();
      at(late.date, '08:00');
      expect((await s.view(late)).change_blocked).toBe('PAST_CUTOFF');
    } finally {
      await s.setCutoff(120);
      h.clock.set(PINNED_NOW);
    }
  });

  it('changes only confirmed bookings; an organization’s cancel says it was the organization', async () => {
    const held = await s.hold({ slotIndex: at10 });
    const heldCancel = await s.cancel(held.bookingId, held.key);
    expect(heldCancel.statusCode).toBe(409);
    expect(heldCancel.json()).toMatchObject({ code: 'BOOKING_NOT_CHANGEABLE' });
    expect((await row(held.bookingId)).status).toBe('held');

    const b = await s.book({ slotIndex: at10 });
    const byOrg = await h.app.inject({
      method: 'POST',
      url: `/api/v1/organization/bookings/${b.bookingId}/cancel`,
      headers: admin,
    });
    expect(byOrg.statusCode, byOrg.body).toBe(200);
    expect(await row(b.bookingId)).toMatchObject({
      status: 'cancelled',
      cancelled_by: 'organization',
    });
    expect((await s.view(b)).cancelled_by).toBe('organization');
    for (const res of [
      await s.cancel(b.bookingId, b.key),
      await s.reschedule(b.bookingId, b.key, { slot_id: h.fx.slotIds[at1130], date: b.date }),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'BOOKING_NOT_CHANGEABLE' });
    }
    expect((await row(b.bookingId)).cancelled_by).toBe('organization');
  });

  it('changes nothing without the booking’s own key', async () => {
    const b = await s.book({ slotIndex: at10 });
    const other = await s.book({ slotIndex: at10 });
    const before = await s.snapshot();
    for (const key of [undefined, other.key, 'A'.repeat(43)]) {
      expect((await s.cancel(b.bookingId, key)).statusCode).toBe(403);
      const move = await s.reschedule(b.bookingId, key, {
        slot_id: h.fx.slotIds[at1130],
        date: b.date,
      });
      expect(move.statusCode).toBe(403);
      expect(move.json()).toMatchObject({ code: 'BOOKING_ACCESS_DENIED' });
      expect((await s.cancelPayment(b.paymentId, key)).statusCode).toBe(403);
    }
    expect(await s.snapshot()).toBe(before);
  });

  it('moves the same booking to another slot: old seat free, new taken, code and key kept', async () => {
    const b = await s.book({ slotIndex: at10 });
    await h.database.db
      .updateTable('bookings')
      .set({ attention_reason: 'closure' })
      .where('id', '=', b.bookingId)
      .execute();
    const before = await s.view(b);
    const to = s.farDate();
    const res = await s.reschedule(b.bookingId, b.key, {
      slot_id: h.fx.slotIds[at1130],
      date: to,
    });
    expect(res.statusCode, res.body).toBe(200);
    const moved = res.json().booking;
    expect(moved).toMatchObject({
      booking_id: b.bookingId,
      code: b.code,
      status: 'confirmed',
      date: to,
      time: '11:30',
      slot_id: h.fx.slotIds[at1130],
      rescheduled_from: { date: b.date, time: '10:00' },
      payment: { payment_id: b.paymentId, status: 'SUCCESSFUL' },
      ticket: { code: b.code, date: to, time: '11:30' },
    });
    // The QR holds the code and its signature only (decision 019): the code is kept, so the
    // token is too; the counter checks the day against the booking, which has moved.
    expect(moved.ticket.token).toBe(before.ticket?.token);
    expect(await h.taken(b.date)).toEqual([]);
    expect(await h.taken(to)).toEqual([h.fx.slotIds[at1130]]);
    expect(await row(b.bookingId)).toMatchObject({
      reschedule_count: 1,
      rescheduled_from_date: b.date,
      rescheduled_from_slot_id: b.slotId,
      attention_reason: null,
      rescheduled_at: new Date(PINNED_NOW),
    });
    // The same key still opens it; the fee carried over (no new payment).
    expect((await s.view(b)).date).toBe(to);
    const payments = await h.database.db
      .selectFrom('payments')
      .select('id')
      .where('booking_id', '=', b.bookingId)
      .execute();
    expect(payments).toHaveLength(1);
    // The organization's list says where it came from.
    const list = await h.app.inject({
      method: 'GET',
      url: `/api/v1/organization/${h.fx.orgId}/bookings?from=${to}&to=${to}`,
      headers: admin,
    });
    expect(list.json().bookings).toEqual([
      expect.objectContaining({
        booking_id: b.bookingId,
        rescheduled_from: { date: b.date, time: '10:00' },
        cancelled_by: null,
      }),
    ]);
  });

  it('refuses the same slot, a taken one, another service’s, a closed day, the past and beyond the horizon', async () => {
    const b = await s.book({ slotIndex: at10 });
    const other = await s.hold({ slotIndex: at1130 });
    const closed = s.farDate();
    await h.database.db
      .insertInto('organization_closures')
      .values({ organization_id: h.fx.orgId, closed_on: closed, reason: 'Holiday' })
      .execute();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ slot_id: b.slotId, date: b.date }, 409, 'SAME_SLOT'],
      [{ slot_id: other.slotId, date: other.date }, 409, 'SLOT_TAKEN'],
      [{ slot_id: h.fx.otherSlotId, date: b.date }, 400, 'SLOT_NOT_IN_SERVICE'],
      [{ slot_id: h.fx.slotIds[at1130], date: closed }, 409, 'DAY_CLOSED'],
      [{ slot_id: h.fx.slotIds[0], date: '2026-03-04' }, 400, 'SLOT_IN_PAST'],
      [{ slot_id: h.fx.slotIds[at1130], date: '2026-06-30' }, 400, 'DATE_OUT_OF_HORIZON'],
      [{ slot_id: 'nope', date: b.date }, 400, 'INVALID_ID'],
      [{ slot_id: h.fx.slotIds[at1130], date: '2026-02-30' }, 400, 'INVALID_DATE'],
    ];
    const before = await s.snapshot();
    for (const [body, status, code] of cases) {
      const res = await s.reschedule(b.bookingId, b.key, body);
      expect(res.statusCode, `${code}: ${res.body}`).toBe(status);
      expect(res.json()).toMatchObject({ code });
    }
    expect(await s.snapshot()).toBe(before);
    // A hold that has lapsed does not block the seat.
    try {
      h.clock.set(new Date(Date.parse(PINNED_NOW) + 11 * 60_000));
      const res = await s.reschedule(b.bookingId, b.key, {
        slot_id: other.slotId,
        date: other.date,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await row(other.bookingId)).status).toBe('expired');
    } finally {
      h.clock.set(PINNED_NOW);
    }
  });

  it('checks a rescheduled ticket in on its new day with the old QR, and reads ticket page links', async () => {
    const b = await s.book({ slotIndex: at10 });
    const oldToken = (await s.view(b)).ticket?.token ?? '';
    const newDate = s.farDate();
    const moved = await s.reschedule(b.bookingId, b.key, {
      slot_id: h.fx.slotIds[at10],
      date: newDate,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const newToken = moved.json().booking.ticket.token as string;
    const link = ticketPageUrl('http://qless.test', b.code, { t: oldToken });
    try {
      // On the old day, the old QR names the booking's real day.
      at(b.date, '09:50');
      const early = await h.app.inject({
        method: 'POST',
        url: '/api/v1/tickets/verify',
        headers: staff,
        payload: { token: link },
      });
      expect(early.json()).toMatchObject({ valid: false, reason: 'NOT_TODAY', date: newDate });
      at(newDate, '09:50');
      for (const token of [link, ticketPageUrl('http://qless.test', b.code, { t: newToken })]) {
        const verify = await h.app.inject({
          method: 'POST',
          url: '/api/v1/tickets/verify',
          headers: staff,
          payload: { token },
        });
        expect(verify.json()).toMatchObject({ valid: true, reason: 'OK', date: newDate });
      }
      const checkin = await h.app.inject({
        method: 'POST',
        url: '/api/v1/organization/checkins',
        headers: staff,
        payload: { token: oldToken },
      });
      expect(checkin.statusCode, checkin.body).toBe(200);
      expect(checkin.json()).toMatchObject({
        result: 'checked_in',
        booking: { booking_id: b.bookingId, date: newDate },
      });
      // Offline scans of links sync too.
      const other = await s.book({ slotIndex: slotIndexAt('10:30'), date: newDate });
      const otherToken = (await s.view(other)).ticket?.token ?? '';
      const sync = await h.app.inject({
        method: 'POST',
        url: '/api/v1/organization/checkins/sync',
        headers: staff,
        payload: {
          items: [
            {
              token: ticketPageUrl('http://qless.test', other.code, { t: otherToken }),
              scanned_at: `${newDate}T08:50:00.000Z`,
              client_id: '33333333-3333-4333-8333-333333333333',
            },
          ],
        },
      });
      expect(sync.json().results).toEqual([
        expect.objectContaining({ result: 'checked_in', booking_id: other.bookingId }),
      ]);
      // A link with no token in it is no ticket.
      const bare = await h.app.inject({
        method: 'POST',
        url: '/api/v1/tickets/verify',
        headers: staff,
        payload: { token: ticketPageUrl('http://qless.test', b.code, {}) },
      });
      expect(bare.json()).toMatchObject({ valid: false, reason: 'INVALID_SIGNATURE' });
    } finally {
      h.clock.set(PINNED_NOW);
    }
  });
});
