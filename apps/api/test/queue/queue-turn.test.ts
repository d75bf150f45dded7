// engines: postgres and pglite — a turn followed live through LISTEN/NOTIFY (in process on PGlite)
import { BOOKING_KEY_HEADER, visitTurnSchema } from '@qless/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { TODAY, useCounterApp } from '../support/checkin-helpers.js';
import { listen, ORIGIN } from '../support/payment-helpers.js';
import { messageLog, queueWriter } from '../support/queue-live-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

const at = (minutes: number) => new Date(Date.parse(PINNED_NOW) + minutes * 60_000);
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe("the visitor's turn", () => {
  const t = useCounterApp();
  const { ctx } = t;
  let host: string;
  let q: ReturnType<typeof queueWriter>;
  let guichet1: string;
  let guichet2: string;
  let first: string;
  let second: string;
  let booked: { visitId: string; bookingId: string; key: string };

  beforeAll(async () => {
    host = await listen(t.app);
    q = queueWriter(t.db, ctx.a.orgId, TODAY);
    guichet1 = await q.counter('Guichet 1', [ctx.a.serviceId]);
    guichet2 = await q.counter('Guichet 2', [ctx.a.serviceId]);
    first = (await q.visit(ctx.a.serviceId, at(-40))).id;
    second = (await q.visit(ctx.a.serviceId, at(-35))).id;
    const booking = await t.book(ctx.a, { name: 'Ngono Marie' });
    const visit = await q.visit(ctx.a.serviceId, at(-20), {
      bookingId: booking.id,
      name: 'Ngono Marie',
    });
    booked = {
      visitId: visit.id,
      bookingId: booking.id,
      key: t.app.payments.access.keyFor(booking.id),
    };
  });

  const poll = (visitId: string, key: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/visits/${visitId}?key=${encodeURIComponent(key)}`,
    });

  it('a booked visitor reads their turn with the booking key: place, range, number', async () => {
    const res = await poll(booked.visitId, booked.key);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { turn } = res.json();
    expect(visitTurnSchema.parse(turn)).toEqual({
      visit_id: booked.visitId,
      number: 'A-003',
      state: 'waiting',
      organization_name: expect.stringContaining('Guichet Unique'),
      service_name: expect.any(String),
      service_name_fr: expect.toBeOneOf([expect.any(String), null]),
      position: 3,
      estimate: { min_minutes: expect.any(Number), max_minutes: expect.any(Number) },
      counters_open: true,
      counter_name: null,
      called_at: null,
      recalls: 0,
    });
    expect(turn.estimate.max_minutes).toBeGreaterThan(turn.estimate.min_minutes);
    // The customer's name is not in the turn (a phone's lock screen may show it).
    expect(res.body).not.toContain('Ngono');
  });

  it('the booking look-up with its key names the visit to follow once there is one', async () => {
    const view = await t.app.inject({
      method: 'GET',
      url: `/api/v1/bookings/${booked.bookingId}`,
      headers: { [BOOKING_KEY_HEADER]: booked.key },
    });
    expect(view.statusCode).toBe(200);
    expect(view.json().booking.visit_id).toBe(booked.visitId);
    const other = await t.book(ctx.a);
    const none = await t.app.inject({
      method: 'GET',
      url: `/api/v1/bookings/${other.id}`,
      headers: { [BOOKING_KEY_HEADER]: t.app.payments.access.keyFor(other.id) },
    });
    expect(none.statusCode).toBe(200);
    expect(none.json().booking).not.toHaveProperty('visit_id');
  });

  it('a wrong key is refused the same way whether or not the visit exists', async () => {
    const other = await t.book(ctx.a);
    const otherKey = t.app.payments.access.keyFor(other.id);
    const refusals = await Promise.all([
      poll(booked.visitId, 'A'.repeat(43)),
      poll(booked.visitId, otherKey),
      // A walk-in's visit has no booking: a booking key of another booking opens nothing.
      poll(first, booked.key),
      poll(UNKNOWN, booked.key),
      poll(UNKNOWN, 'A'.repeat(43)),
    ]);
    for (const res of refusals) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'INVALID_VISIT_KEY', message: expect.any(String) });
    }
    expect(new Set(refusals.map((r) => r.body)).size).toBe(1);
    const noKey = await t.app.inject({ method: 'GET', url: `/api/v1/visits/${booked.visitId}` });
    expect(noKey.statusCode).toBe(400);
    const badId = await poll('nope', booked.key);
    expect(badId.statusCode).toBe(400);
    // The socket is refused before the upgrade.
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(
        `ws://${host}/api/v1/visits/${booked.visitId}/turnSocket?key=${'A'.repeat(43)}`,
        { headers: { origin: ORIGIN } },
      );
      ws.on('unexpected-response', (_req, r) => resolve(r.statusCode ?? 0));
      ws.on('open', () => reject(new Error('upgraded')));
    });
    expect(status).toBe(403);
  });

  it('its socket pushes each new place, then "go to Guichet 1", and closes when served', async () => {
    const ws = new WebSocket(
      `ws://${host}/api/v1/visits/${booked.visitId}/turnSocket?key=${booked.key}`,
      { headers: { origin: ORIGIN } },
    );
    const log = messageLog(ws);
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    expect(await log.next(() => true)).toMatchObject({ position: 3, state: 'waiting' });

    await q.move(first, 'called', at(1), guichet1);
    expect(await log.next((m) => m.position === 2)).toMatchObject({ state: 'waiting' });

    // A visitor of another service joining changes nothing here: nothing is sent.
    const quiet = log.messages.length;
    await q.visit(ctx.a.otherServiceId, at(2));
    await new Promise((r) => setTimeout(r, 300));
    expect(log.messages.length).toBe(quiet);

    await q.move(second, 'called', at(3), guichet2);
    await log.next((m) => m.position === 1);
    await q.move(first, 'done', at(4));
    await q.move(booked.visitId, 'called', at(5), guichet1);
    const called = await log.next((m) => m.state === 'called');
    expect(called).toMatchObject({
      state: 'called',
      position: null,
      estimate: null,
      counter_name: 'Guichet 1',
      called_at: at(5).toISOString(),
      recalls: 0,
    });
    await q.move(booked.visitId, 'called', at(6));
    expect(await log.next((m) => m.recalls === 1)).toMatchObject({ counter_name: 'Guichet 1' });
    await q.move(booked.visitId, 'serving', at(7));
    await log.next((m) => m.state === 'serving');
    await q.move(booked.visitId, 'done', at(12));
    expect(await closed).toBe(1000);
    expect(log.messages.at(-1)?.json).toMatchObject({ state: 'done', position: null });
    for (const m of log.messages) {
      visitTurnSchema.parse(m.json);
      expect(Buffer.byteLength(m.text)).toBeLessThan(400);
    }
    // The poll says the same once it is over.
    const after = await poll(booked.visitId, booked.key);
    expect(after.json().turn).toMatchObject({ state: 'done' });
  });

  it('a transfer keeps the follower on the visitor: the new line, the same number', async () => {
    const booking = await t.book(ctx.a);
    const key = t.app.payments.access.keyFor(booking.id);
    const visit = await q.visit(ctx.a.serviceId, at(20), { bookingId: booking.id });
    const ws = new WebSocket(`ws://${host}/api/v1/visits/${visit.id}/turnSocket?key=${key}`, {
      headers: { origin: ORIGIN },
    });
    const log = messageLog(ws);
    const start = await log.next(() => true);
    expect(start).toMatchObject({ state: 'waiting' });
    // Transferred: the old visit ends as 'transferred', a new one waits in the other line.
    await t.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('visits')
        .set({ state: 'transferred', ended_at: at(21) })
        .where('id', '=', visit.id)
        .execute();
      const old = await trx
        .selectFrom('visits')
        .selectAll()
        .where('id', '=', visit.id)
        .executeTakeFirstOrThrow();
      const { id: _id, created_at: _c, updated_at: _u, ...rest } = old;
      await trx
        .insertInto('visits')
        .values({
          ...rest,
          service_id: ctx.a.otherServiceId,
          state: 'waiting',
          ended_at: null,
          queued_at: at(21),
          transferred_from: visit.id,
        })
        .execute();
      const { notifyQueueChanged } = await import('../../src/modules/queue/queue-events.js');
      await notifyQueueChanged(trx, ctx.a.orgId);
    });
    const moved = await log.next((m) => m.service_name !== start.service_name);
    expect(moved).toMatchObject({
      visit_id: visit.id,
      number: start.number,
      state: 'waiting',
      position: 2,
    });
    const polled = await poll(visit.id, key);
    expect(polled.json().turn).toMatchObject({ state: 'waiting', number: start.number });
    ws.close();
  });

  it('through the real routes: a walk-in joins from the poster, follows with its key, and is called by a clerk', async () => {
    await t.db
      .updateTable('organizations')
      .set({ queue_join_enabled: true })
      .where('id', '=', ctx.b.orgId)
      .execute();
    const joined = await t.app.inject({
      method: 'POST',
      url: `/api/v1/join/${ctx.b.orgId}`,
      payload: { service_id: ctx.b.serviceId, name: 'Fotso Paul', phone: '677123456' },
      remoteAddress: '10.1.2.3',
    });
    expect(joined.statusCode).toBe(201);
    const { turn, key } = joined.json<{ turn: { visit_id: string }; key: string }>();
    const polled = await poll(turn.visit_id, key);
    expect(polled.statusCode).toBe(200);
    expect(polled.json().turn).toMatchObject({ position: 1, state: 'waiting' });
    expect(polled.body).not.toMatch(/Fotso|677123456/);

    const ws = new WebSocket(`ws://${host}/api/v1/visits/${turn.visit_id}/turnSocket?key=${key}`, {
      headers: { origin: ORIGIN },
    });
    const log = messageLog(ws);
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    expect(await log.next(() => true)).toMatchObject({ position: 1 });

    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/queue/counters?organization_id=${ctx.b.orgId}`,
      headers: ctx.operator.headers,
      payload: { name: 'Guichet 3', service_ids: [ctx.b.serviceId] },
    });
    expect(created.statusCode).toBe(201);
    const counterId = created.json().counter.counter_id as string;
    for (const action of ['open', 'call-next']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/queue/counters/${counterId}/${action}`,
        headers: ctx.staffB.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await log.next((m) => m.state === 'called')).toMatchObject({
      counter_name: 'Guichet 3',
      position: null,
    });
    for (const action of ['start', 'done']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/queue/counters/${counterId}/${action}`,
        headers: ctx.staffB.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await closed).toBe(1000);
    expect(log.messages.at(-1)?.json).toMatchObject({ state: 'done' });
    // Its key opens this visit only.
    const firstOfA = await poll(first, key);
    expect(firstOfA.statusCode).toBe(403);
  });
});
