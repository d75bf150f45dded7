import { describe, expect, it } from 'vitest';
import { SLOT, TODAY, TOMORROW, useCounterApp, YESTERDAY } from '../support/checkin-helpers.js';
import { initiateBody } from '../support/fixtures.js';

describe('the counter’s day, no-show and cancel', () => {
  const h = useCounterApp();
  const { ctx } = h;
  const at = (hhmm: string, date = TODAY) => h.clock.set(`${date}T${hhmm}:00+01:00`);
  const today = (headers: Record<string, string> | null, query = '') =>
    h.app.inject({
      method: 'GET',
      url: `/api/v1/organization/today${query}`,
      ...(headers ? { headers } : {}),
    });
  const act = (headers: Record<string, string> | null, id: string, action: 'no-show' | 'cancel') =>
    h.app.inject({
      method: 'POST',
      url: `/api/v1/organization/bookings/${id}/${action}`,
      ...(headers ? { headers } : {}),
    });

  it('lists today’s bookings in slot order with their state, the key, and nothing of another day', async () => {
    at('09:30');
    const late = await h.book(ctx.a, { slot: SLOT.at1000, name: 'Late Comer' });
    const early = await h.book(ctx.a, { slot: SLOT.at0700, name: 'Early Bird' });
    const held = await h.book(ctx.a, { slot: SLOT.at0930, status: 'held', name: 'Still Paying' });
    const done = await h.book(ctx.a, { slot: SLOT.at0900, name: 'Done Already' });
    await h.checkIn(ctx.staffA.headers, { code: done.code });
    await h.book(ctx.a, { date: TOMORROW, name: 'Tomorrow Person' });
    await h.book(ctx.a, { status: 'expired', name: 'Never Paid' });
    await h.book(ctx.b, { name: 'Someone Of B' });

    const res = await today(ctx.staffA.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({
      organization: { organization_id: ctx.a.orgId, time_zone: 'Africa/Douala' },
      date: TODAY,
      server_time: '2026-03-04T08:30:00.000Z',
      keys: [{ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' }],
    });
    const rows = body.bookings.map(
      (b: { cus_name: string; time: string; status: string }) =>
        `${b.time} ${b.cus_name} ${b.status}`,
    );
    expect(rows).toEqual([
      '07:00 Early Bird confirmed',
      '09:00 Done Already checked_in',
      '09:30 Still Paying held',
      '10:00 Late Comer confirmed',
    ]);
    expect(body.bookings[1]).toMatchObject({ checked_in_time: '09:30', ticket_code: done.code });
    expect(body.bookings[0]).toMatchObject({
      booking_id: early.id,
      ticket_code: early.code,
      service_name: 'Counter 15',
    });
    expect(body.bookings[2]).toMatchObject({ booking_id: held.id, ticket_code: null });
    expect(late.id).toBe(body.bookings[3].booking_id);
    // What the screen needs, not the customers' contacts.
    expect(res.body).not.toMatch(/@example|\+2376/);
  });

  it('is guarded: 401 signed out, 403 for staff naming another organization, operators must name one', async () => {
    expect((await today(null)).statusCode).toBe(401);
    expect((await today(ctx.staffA.headers, `?organization_id=${ctx.b.orgId}`)).statusCode).toBe(
      403,
    );
    expect((await today(ctx.operator.headers)).statusCode).toBe(400);
    const ops = await today(ctx.operator.headers, `?organization_id=${ctx.b.orgId}`);
    expect(ops.statusCode).toBe(200);
    expect(ops.json().bookings.map((b: { cus_name: string }) => b.cus_name)).toContain(
      'Someone Of B',
    );
  });

  it('marks a confirmed booking whose slot has started as a no-show, and nothing else', async () => {
    at('09:30');
    const started = await h.book(ctx.a, { slot: SLOT.at0900 });
    const res = await act(ctx.staffA.headers, started.id, 'no-show');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ booking: { booking_id: started.id, status: 'no_show' } });
    // Marked by the organization, not by the queue's sweep (decision 020).
    const marked = await h.db
      .selectFrom('bookings')
      .select('no_show_by')
      .where('id', '=', started.id)
      .executeTakeFirstOrThrow();
    expect(marked.no_show_by).toBe('organization');
    expect((await act(ctx.staffA.headers, started.id, 'no-show')).json()).toMatchObject({
      code: 'BOOKING_NO_SHOW',
    });
    // Its ticket can no longer be checked in.
    expect((await h.checkIn(ctx.staffA.headers, { code: started.code })).json()).toMatchObject({
      reason: 'BOOKING_NO_SHOW',
    });

    const notYet = await h.book(ctx.a, { slot: SLOT.at1000 });
    const early = await act(ctx.staffA.headers, notYet.id, 'no-show');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'SLOT_NOT_STARTED' });
    const tomorrow = await h.book(ctx.a, { date: TOMORROW, slot: SLOT.at0700 });
    expect((await act(ctx.adminA.headers, tomorrow.id, 'no-show')).json()).toMatchObject({
      code: 'SLOT_NOT_STARTED',
    });

    const here = await h.book(ctx.a, { slot: SLOT.at0700 });
    await h.checkIn(ctx.staffA.headers, { code: here.code });
    const checked = await act(ctx.staffA.headers, here.id, 'no-show');
    expect(checked.statusCode).toBe(409);
    expect(checked.json()).toMatchObject({ code: 'ALREADY_CHECKED_IN' });
    const held = await h.book(ctx.a, { slot: SLOT.at0700, status: 'held' });
    expect((await act(ctx.staffA.headers, held.id, 'no-show')).json()).toMatchObject({
      code: 'BOOKING_HELD',
    });
  });

  it('answers 404 for another organization’s booking id, changing nothing, and 401 signed out', async () => {
    at('09:30');
    const theirs = await h.book(ctx.b, { slot: SLOT.at0700 });
    for (const action of ['no-show', 'cancel'] as const) {
      const res = await act(ctx.staffA.headers, theirs.id, action);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'BOOKING_NOT_FOUND' });
      expect((await act(null, theirs.id, action)).statusCode).toBe(401);
    }
    expect((await act(ctx.staffA.headers, 'not-an-id', 'cancel')).json()).toMatchObject({
      code: 'INVALID_ID',
    });
    const row = await h.db
      .selectFrom('bookings')
      .select('status')
      .where('id', '=', theirs.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('confirmed');
    // An operator may act on any organization's booking.
    expect((await act(ctx.operator.headers, theirs.id, 'no-show')).statusCode).toBe(200);
  });

  it('lets staff no-show or cancel only today’s bookings (404 otherwise, as unknown); admins and operators any day', async () => {
    at('11:00');
    const yesterday = await h.book(ctx.a, { date: YESTERDAY });
    const tomorrow = await h.book(ctx.a, { date: TOMORROW });
    const unknown = await act(ctx.staffA.headers, '00000000-0000-4000-8000-000000000000', 'cancel');
    expect(unknown.statusCode).toBe(404);
    for (const [b, action] of [
      [yesterday, 'no-show'],
      [yesterday, 'cancel'],
      [tomorrow, 'cancel'],
    ] as const) {
      const res = await act(ctx.staffA.headers, b.id, action);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(unknown.json());
    }
    const rows = await h.db
      .selectFrom('bookings')
      .select('status')
      .where('id', 'in', [yesterday.id, tomorrow.id])
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['confirmed', 'confirmed']);
    expect((await act(ctx.adminA.headers, yesterday.id, 'no-show')).json()).toMatchObject({
      booking: { status: 'no_show' },
    });
    expect((await act(ctx.operator.headers, tomorrow.id, 'cancel')).statusCode).toBe(200);
    const today = await h.book(ctx.a);
    expect((await act(ctx.staffA.headers, today.id, 'cancel')).statusCode).toBe(200);
  });

  it('cancels a held or confirmed booking, not one checked in; cancelling frees the seat', async () => {
    at('09:30');
    const slotIndex = 30; // 14:30, seat 1 of a capacity-1 service
    const taken = await h.book(ctx.a, { date: TOMORROW, slot: slotIndex, seat: 1 });
    const blocked = await h.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(ctx.a, { slotIndex, date: TOMORROW }),
    });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toMatchObject({ code: 'SLOT_TAKEN' });

    const res = await act(ctx.adminA.headers, taken.id, 'cancel');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ booking: { status: 'cancelled' } });
    const again = await act(ctx.adminA.headers, taken.id, 'cancel');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'BOOKING_CANCELLED' });

    const hold = await h.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(ctx.a, { slotIndex, date: TOMORROW }),
    });
    expect(hold.statusCode).toBe(201);

    const held = await h.book(ctx.a, { slot: SLOT.at1000, status: 'held' });
    expect((await act(ctx.staffA.headers, held.id, 'cancel')).json()).toMatchObject({
      booking: { status: 'cancelled' },
    });
    const here = await h.book(ctx.a, { slot: SLOT.at0700 });
    await h.checkIn(ctx.staffA.headers, { code: here.code });
    expect((await act(ctx.staffA.headers, here.id, 'cancel')).json()).toMatchObject({
      code: 'ALREADY_CHECKED_IN',
    });
    const row = await h.db
      .selectFrom('bookings')
      .select(['status', 'status_changed_at'])
      .where('id', '=', taken.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      status: 'cancelled',
      status_changed_at: new Date('2026-03-04T08:30:00Z'),
    });
  });
});
