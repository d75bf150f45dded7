// engines: postgres and pglite — no estimate with no counter open; leaving the line (under the queue lock)
import type { JoinInfoResponse, VisitTurn } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { useCounterApp } from '../support/checkin-helpers.js';
import { queueApi, queueSms } from '../support/queue-helpers.js';

/**
 * Issue 30 items 3 and 9: no estimate and no "you are next" SMS while no counter serving the
 * service is open (the SMS decided again when one opens), and a visitor leaving the line
 * from their own page with their visit's key.
 */
describe('a turn while no counter can serve, and leaving the line', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);

  const turnOf = async (visitId: string): Promise<VisitTurn> => {
    // The poll answers from the live layer's day (kept 5 s unless a change's notification
    // has reached it): a read after that age is the database's, on either engine.
    s.clock.advance(6_000);
    const key = s.app.visitAccess.keyFor(visitId);
    const res = await q.call('GET', `/visits/${visitId}?key=${encodeURIComponent(key)}`, null);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ turn: VisitTurn }>().turn;
  };
  const joinLine = async (serviceId: string) => {
    const res = await q.call('GET', `/join/${ctx.a.orgId}`, null);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<JoinInfoResponse>().services.find((x) => x.service_id === serviceId);
  };
  const leave = (visitId: string, payload?: unknown) =>
    q.call('POST', `/visits/${visitId}/leave`, null, payload);

  it('no counter open: no estimate, no near SMS; a counter of the service opening sends it then', async () => {
    const phone = '+237690001001';
    s.clock.advance(60_000);
    const visit = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Abena', phone, 'fr');
    // First in line with no counter created at all.
    let turn = await turnOf(visit.visit_id);
    expect(turn).toMatchObject({ state: 'waiting', position: 1, estimate: null });
    expect(turn.counters_open).toBe(false);
    expect(await queueSms(s.db, phone)).toEqual([]);
    expect(await joinLine(ctx.a.serviceId)).toMatchObject({ estimate: null, counters_open: false });

    // A counter of another service opens, and one of this service is made but stays closed.
    await q.openCounter(ctx.adminA.headers, 'Guichet 9', [ctx.a.otherServiceId]);
    const closed = await q.createCounter(ctx.adminA.headers, 'Guichet 1', [ctx.a.serviceId]);
    s.clock.advance(60_000);
    await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Bih', '+237690001002', 'en');
    turn = await turnOf(visit.visit_id);
    expect(turn).toMatchObject({ position: 1, estimate: null, counters_open: false });
    expect(await queueSms(s.db, phone)).toEqual([]);
    expect(await queueSms(s.db, '+237690001002')).toEqual([]);
    expect(await joinLine(ctx.a.otherServiceId)).toMatchObject({ counters_open: true });

    // The counter opens: the held SMS are decided again, once.
    const open = await q.call(
      'POST',
      `/queue/counters/${closed.counter_id}/open`,
      ctx.staffA.headers,
    );
    expect(open.statusCode, open.body).toBe(200);
    const sms = await queueSms(s.db, phone);
    expect(sms.map((m) => m.kind)).toEqual(['queue_near']);
    expect(sms[0]?.text_body).toMatch(/\/visit\/[0-9a-f-]{36}#k=[A-Za-z0-9_-]{22}$/);
    expect((await queueSms(s.db, '+237690001002')).map((m) => m.kind)).toEqual(['queue_near']);
    turn = await turnOf(visit.visit_id);
    expect(turn.counters_open).toBe(true);
    expect(turn.estimate).toEqual({
      min_minutes: expect.any(Number),
      max_minutes: expect.any(Number),
    });
    expect(await joinLine(ctx.a.serviceId)).toMatchObject({
      counters_open: true,
      estimate: { min_minutes: expect.any(Number) },
    });

    // Paused: no estimate again; the SMS already sent is not sent twice when it reopens.
    const pause = await q.call(
      'POST',
      `/queue/counters/${closed.counter_id}/pause`,
      ctx.staffA.headers,
    );
    expect(pause.statusCode, pause.body).toBe(200);
    expect(await turnOf(visit.visit_id)).toMatchObject({ estimate: null, counters_open: false });
    await q.call('POST', `/queue/counters/${closed.counter_id}/open`, ctx.staffA.headers);
    expect(await queueSms(s.db, phone)).toHaveLength(1);
  });

  it('leaving the line: the key required, a wrong key refused, one event, idempotent', async () => {
    s.clock.advance(60_000);
    const leaver = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Chia');
    s.clock.advance(60_000);
    const behind = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Dang');
    const before = (await turnOf(behind.visit_id)).position ?? 0;
    const key = s.app.visitAccess.keyFor(leaver.visit_id);

    const missing = await leave(leaver.visit_id, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('INVALID_VISIT_KEY');
    const wrong = await leave(leaver.visit_id, { key: s.app.visitAccess.keyFor(behind.visit_id) });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('INVALID_VISIT_KEY');
    const unknown = await leave(crypto.randomUUID(), { key });
    expect(unknown.statusCode).toBe(403);
    expect((await turnOf(leaver.visit_id)).state).toBe('waiting');

    const left = await leave(leaver.visit_id, { key });
    expect(left.statusCode, left.body).toBe(200);
    expect(left.headers['cache-control']).toBe('no-store');
    expect(left.json<{ turn: VisitTurn }>().turn).toMatchObject({
      visit_id: leaver.visit_id,
      state: 'left',
      position: null,
      estimate: null,
    });
    expect((await turnOf(behind.visit_id)).position).toBe(before - 1);
    const again = await leave(leaver.visit_id, { key });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ turn: VisitTurn }>().turn.state).toBe('left');
    const events = await s.db
      .selectFrom('visit_events')
      .select(['kind', 'from_state', 'to_state', 'by_user'])
      .where('visit_id', '=', leaver.visit_id)
      .where('to_state', '=', 'left')
      .execute();
    expect(events).toEqual([
      { kind: 'left_by_visitor', from_state: 'waiting', to_state: 'left', by_user: null },
    ]);
    const row = await s.db
      .selectFrom('visits')
      .select(['state', 'ended_at'])
      .where('id', '=', leaver.visit_id)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('left');
    expect(row.ended_at).not.toBeNull();
  });

  it('a visit being served cannot be left from the phone: 409', async () => {
    const counter = await q.openCounter(ctx.adminA.headers, 'Guichet 5', [ctx.a.serviceId]);
    const res0 = await q.act(ctx.staffA.headers, counter.counter_id, 'call-next');
    expect(res0.statusCode, res0.body).toBe(200);
    const called: string | null = res0.json().visit?.visit_id ?? null;
    expect(called).not.toBeNull();
    const id = called as string;
    expect((await q.act(ctx.staffA.headers, counter.counter_id, 'start')).statusCode).toBe(200);
    const res = await leave(id, { key: s.app.visitAccess.keyFor(id) });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('VISIT_NOT_ACTIONABLE');
    expect((await turnOf(id)).state).toBe('serving');

    // The visit-over page links to the feedback page: a token once done, none before.
    const key = s.app.visitAccess.keyFor(id);
    const link = () =>
      q.call('GET', `/visits/${id}/feedbackLink?key=${encodeURIComponent(key)}`, null);
    expect((await link()).json()).toEqual({ token: null });
    const other = s.app.visitAccess.keyFor(crypto.randomUUID());
    expect(
      (await q.call('GET', `/visits/${id}/feedbackLink?key=${encodeURIComponent(other)}`, null))
        .statusCode,
    ).toBe(403);
    expect((await q.act(ctx.staffA.headers, counter.counter_id, 'done')).statusCode).toBe(200);
    const answer = await link();
    expect(answer.statusCode, answer.body).toBe(200);
    const token = answer.json<{ token: string }>().token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{48}$/);
    const page = await q.call('GET', `/feedback/${token}`, null);
    expect(page.statusCode, page.body).toBe(200);
  });

  it('the key in X-Visit-Key, never in the address (decision 124); an older ?key= still opens the turn', async () => {
    s.clock.advance(60_000);
    const visit = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Ekane');
    s.clock.advance(6_000);
    const key = s.app.visitAccess.keyFor(visit.visit_id);
    const byHeader = await q.call('GET', `/visits/${visit.visit_id}`, { 'x-visit-key': key });
    expect(byHeader.statusCode, byHeader.body).toBe(200);
    expect(byHeader.json<{ turn: VisitTurn }>().turn.visit_id).toBe(visit.visit_id);
    const byQuery = await q.call(
      'GET',
      `/visits/${visit.visit_id}?key=${encodeURIComponent(key)}`,
      null,
    );
    expect(byQuery.statusCode, byQuery.body).toBe(200);
    expect(byQuery.json()).toEqual(byHeader.json());
    const other = s.app.visitAccess.keyFor(crypto.randomUUID());
    const wrong = await q.call('GET', `/visits/${visit.visit_id}`, { 'x-visit-key': other });
    expect(wrong.statusCode).toBe(403);
    const none = await q.call('GET', `/visits/${visit.visit_id}`, null);
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('INVALID_VISIT_KEY');
    const link = await q.call('GET', `/visits/${visit.visit_id}/feedbackLink`, {
      'x-visit-key': key,
    });
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json()).toEqual({ token: null });
  });
});
