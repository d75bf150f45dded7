// engines: postgres and pglite — routing reads an or() of services and a named counter, Insight a full join, on both engines
import {
  boardSnapshotSchema,
  type Counter,
  type CounterActionResponse,
  type InsightResponse,
  type QueueTodayResponse,
  type QueueVisit,
} from '@qless/contract';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useCounterApp } from '../support/checkin-helpers.js';
import { emptyQueue, queueApi } from '../support/queue-helpers.js';

/**
 * Counters that route and calls out of order (decision 139): a counter's own line first, then
 * the longest line it helps; a transfer to a named counter; a chosen number called with a
 * reason, kept on the visit's events, in the audit log, on the board and in Insight per clerk.
 */
describe('counters that route, and calls out of order on the record', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  const MINUTE = 60_000;
  let desk: Counter; // serves the first service, helps the other
  let loans: Counter; // serves the other service
  let boardToken: string;

  const act = async (counter: Counter, action: string, payload?: unknown) => {
    const res = await q.act(ctx.staffA.headers, counter.counter_id, action, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<CounterActionResponse>();
  };
  /** Call next, then start: the name called (or null). */
  const callNext = async (counter: Counter) => {
    const { visit } = await act(counter, 'call-next');
    if (visit) await act(counter, 'start');
    return visit?.customer_name ?? null;
  };
  const walkIn = async (serviceId: string, name: string): Promise<QueueVisit> => {
    s.clock.advance(MINUTE);
    return q.walkIn(ctx.staffA.headers, serviceId, name);
  };
  const today = async () =>
    (await q.call('GET', '/queue/today', ctx.staffA.headers)).json<QueueTodayResponse>();
  const namesOf = (day: QueueTodayResponse, ids: readonly string[]) =>
    ids.map((id) => day.visits.find((v) => v.visit_id === id)?.customer_name);

  beforeAll(async () => {
    desk = await q.createCounter(ctx.adminA.headers, 'Accueil', [ctx.a.serviceId]);
    loans = await q.createCounter(ctx.adminA.headers, 'Prêts', [ctx.a.otherServiceId]);
    const board = await q.call('POST', '/queue/boards', ctx.adminA.headers, { name: 'Hall' });
    boardToken = board.json<{ token: string }>().token;
  });

  beforeEach(async () => {
    await emptyQueue(s.db, ctx.a.orgId, s.clock.now());
    for (const c of [desk, loans]) await act(c, 'open');
  });

  it('keeps the lines a counter helps apart from its own, and refuses a service in both', async () => {
    const both = await q.call('PATCH', `/queue/counters/${desk.counter_id}`, ctx.adminA.headers, {
      help_service_ids: [ctx.a.serviceId],
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().code).toBe('INVALID_COUNTER');
    const foreign = await q.call(
      'PATCH',
      `/queue/counters/${desk.counter_id}`,
      ctx.adminA.headers,
      {
        help_service_ids: [ctx.b.serviceId],
      },
    );
    expect(foreign.statusCode).toBe(400);
    const set = await q.call('PATCH', `/queue/counters/${desk.counter_id}`, ctx.adminA.headers, {
      help_service_ids: [ctx.a.otherServiceId],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<{ counter: Counter }>().counter).toMatchObject({
      service_ids: [ctx.a.serviceId],
      help_service_ids: [ctx.a.otherServiceId],
    });
    // Renaming keeps both lists; a new counter may be made helping at once.
    const renamed = await q.call(
      'PATCH',
      `/queue/counters/${desk.counter_id}`,
      ctx.adminA.headers,
      {
        name: 'Accueil',
      },
    );
    expect(renamed.json<{ counter: Counter }>().counter.help_service_ids).toEqual([
      ctx.a.otherServiceId,
    ]);
    const listed = (await q.call('GET', '/queue/counters', ctx.staffA.headers)).json<{
      counters: Counter[];
    }>().counters;
    expect(listed.find((c) => c.counter_id === desk.counter_id)?.help_service_ids).toEqual([
      ctx.a.otherServiceId,
    ]);
  });

  it('serves its own line first, then helps the longest line; its list says so', async () => {
    await q.call('PATCH', `/queue/counters/${desk.counter_id}`, ctx.adminA.headers, {
      help_service_ids: [ctx.a.otherServiceId],
    });
    await act(loans, 'pause');
    await walkIn(ctx.a.otherServiceId, 'Prêt 1');
    await walkIn(ctx.a.otherServiceId, 'Prêt 2');
    await walkIn(ctx.a.serviceId, 'Dépôt 1');
    const day = await today();
    const listOf = (c: Counter) => day.counters.find((x) => x.counter_id === c.counter_id);
    expect(namesOf(day, listOf(desk)?.calls_next ?? [])).toEqual(['Dépôt 1', 'Prêt 1', 'Prêt 2']);
    expect(namesOf(day, listOf(loans)?.calls_next ?? [])).toEqual(['Prêt 1', 'Prêt 2']);
    // Prêts is paused, Accueil helps: the loans line is served, with an estimate.
    const loan = day.visits.find((v) => v.customer_name === 'Prêt 1');
    expect(loan?.estimate).not.toBeNull();
    expect(await callNext(desk)).toBe('Dépôt 1'); // its own, though it came last
    expect(await callNext(desk)).toBe('Prêt 1'); // then the line it helps
    await q.call('PATCH', `/queue/counters/${desk.counter_id}`, ctx.adminA.headers, {
      help_service_ids: [],
    });
    expect(await callNext(desk)).toBeNull(); // helps no more: Prêt 2 waits for Prêts
  });

  it('transfers to a named counter: only it calls the visitor while it stands, then anyone serving the line', async () => {
    const moved = await walkIn(ctx.a.serviceId, 'Envoyé');
    await walkIn(ctx.a.serviceId, 'Suivant');
    expect(await callNext(desk)).toBe('Envoyé');
    for (const [to, status, code] of [
      [desk.counter_id, 409, 'VISIT_NOT_ACTIONABLE'],
      ['00000000-0000-4000-8000-000000000000', 404, 'COUNTER_NOT_FOUND'],
    ] as const) {
      const res = await q.act(ctx.staffA.headers, desk.counter_id, 'transfer', { counter_id: to });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().code).toBe(code);
    }
    const none = await q.act(ctx.staffA.headers, desk.counter_id, 'transfer', {});
    expect(none.statusCode).toBe(400);
    await act(loans, 'close');
    const closed = await q.act(ctx.staffA.headers, desk.counter_id, 'transfer', {
      counter_id: loans.counter_id,
    });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().code).toBe('TRANSFER_COUNTER_CLOSED');
    // Another branch's counter is no destination.
    const elsewhere = await q.call(
      'POST',
      `/queue/counters?organization_id=${ctx.b.orgId}`,
      ctx.operator.headers,
      { name: 'Ailleurs', service_ids: [ctx.b.serviceId] },
    );
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    const foreign = await q.act(ctx.staffA.headers, desk.counter_id, 'transfer', {
      counter_id: elsewhere.json<{ counter: Counter }>().counter.counter_id,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('COUNTER_NOT_FOUND');
    await act(loans, 'open');
    const sent = await act(desk, 'transfer', { counter_id: loans.counter_id });
    expect(sent.visit).toMatchObject({
      number: moved.number,
      service_id: ctx.a.serviceId, // its service kept
      for_counter_id: loans.counter_id,
      state: 'waiting',
    });
    // Accueil serves that service but calls the next one: Envoyé waits for Prêts.
    expect(await callNext(desk)).toBe('Suivant');
    const day = await today();
    expect(
      namesOf(day, day.counters.find((c) => c.counter_id === loans.counter_id)?.calls_next ?? []),
    ).toEqual(['Envoyé']);
    expect(await callNext(loans)).toBe('Envoyé');
  });

  it('a visitor sent to a counter that closes goes back to their line, for good', async () => {
    await walkIn(ctx.a.serviceId, 'Retour');
    expect(await callNext(desk)).toBe('Retour');
    const sent = await act(desk, 'transfer', { counter_id: loans.counter_id });
    expect((await act(desk, 'call-next')).visit).toBeNull();
    await act(loans, 'close');
    // Prêts opening again does not take them back.
    await act(loans, 'open');
    const visit = await s.db
      .selectFrom('visits')
      .select('for_counter_id')
      .where('id', '=', sent.visit?.visit_id ?? '')
      .executeTakeFirstOrThrow();
    expect(visit.for_counter_id).toBeNull();
    expect(await callNext(desk)).toBe('Retour');
  });

  it('calls a chosen number with a reason: on the visit, its event, the audit log, the board and Insight per clerk', async () => {
    await walkIn(ctx.a.serviceId, 'Premier');
    const returning = await walkIn(ctx.a.serviceId, 'Revenu');
    const url = `/queue/counters/${desk.counter_id}/call-visit`;
    const refused = [
      [{ visit_id: returning.visit_id }, 400, 'CALL_REASON_REQUIRED'],
      [{ visit_id: returning.visit_id, reason: 'friend' }, 400, 'CALL_REASON_REQUIRED'],
      [{ visit_id: 'nope', reason: 'returning' }, 400, 'INVALID_ID'],
    ] as const;
    for (const [body, status, code] of refused) {
      const res = await q.call('POST', url, ctx.staffA.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().code).toBe(code);
    }
    // Another branch's visitor cannot be called here, nor this counter used by its staff.
    const theirs = await q.walkIn(ctx.staffB.headers, ctx.b.serviceId, 'Ailleurs');
    const stolen = await q.call('POST', url, ctx.staffA.headers, {
      visit_id: theirs.visit_id,
      reason: 'returning',
    });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().code).toBe('VISIT_NOT_FOUND');
    const other = await q.call('POST', url, ctx.staffB.headers, {
      visit_id: returning.visit_id,
      reason: 'returning',
    });
    expect(other.statusCode).toBe(403);

    const called = await act(desk, 'call-visit', {
      visit_id: returning.visit_id,
      reason: 'returning',
    });
    expect(called.visit).toMatchObject({
      customer_name: 'Revenu',
      state: 'called',
      call_reason: 'returning',
      counter_id: desk.counter_id,
    });
    expect(called.undo?.kind).toBe('call_next');
    // Calling them again: no longer waiting.
    const twice = await q.act(ctx.staffA.headers, desk.counter_id, 'start');
    expect(twice.statusCode).toBe(200);
    const again = await q.call('POST', url, ctx.staffA.headers, {
      visit_id: returning.visit_id,
      reason: 'returning',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('VISIT_NOT_ACTIONABLE');

    const events = await s.db
      .selectFrom('visit_events')
      .select(['kind', 'reason', 'by_user', 'counter_id', 'call_kind'])
      .where('visit_id', '=', returning.visit_id)
      .orderBy('id')
      .execute();
    expect(events.find((e) => e.kind === 'called')).toEqual({
      kind: 'called',
      reason: 'returning',
      by_user: ctx.staffA.id,
      counter_id: desk.counter_id,
      call_kind: null, // outside the ratio
    });

    await new Promise((resolve) => setImmediate(resolve));
    await s.app.audit.recorder.flush();
    const audit = await s.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'actor_user_id', 'outcome'])
      .where('action', '=', 'queue.call_out_of_order')
      .where('outcome', '=', 200)
      .execute();
    expect(audit.map((a) => [a.actor_user_id, a.target as unknown])).toContainEqual([
      ctx.staffA.id,
      { id: desk.counter_id, visit_id: returning.visit_id, reason: 'returning' },
    ]);

    s.clock.advance(6_000); // past the board's cached day
    const board = boardSnapshotSchema.parse(
      (await s.app.inject({ method: 'GET', url: `/api/v1/board/${boardToken}` })).json(),
    );
    expect(board.calls[0]).toMatchObject({ number: returning.number, out_of_order: true });

    // Done: the clerk's figures count the visit served and the call out of turn.
    await act(desk, 'done');
    const date = (await today()).date;
    const res = await q.call(
      'GET',
      `/organization/insight?from=${date}&to=${date}`,
      ctx.adminA.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    const insight = res.json<InsightResponse>();
    const clerk = insight.clerks.find((c) => c.user_id === ctx.staffA.id);
    expect(clerk?.out_of_order_calls).toBeGreaterThanOrEqual(1);
    expect(clerk?.served).toBeGreaterThanOrEqual(1);
    expect(insight.out_of_order_calls[0]).toMatchObject({
      date,
      number: returning.number,
      reason: 'returning',
      user_id: ctx.staffA.id,
      counter_name: 'Accueil',
      undone: false,
    });
  });

  it('an Undo of a call out of order puts the visitor back; the record keeps it, marked undone', async () => {
    const chosen = await walkIn(ctx.a.serviceId, 'Choisi');
    await act(desk, 'call-visit', { visit_id: chosen.visit_id, reason: 'urgent' });
    const undone = await act(desk, 'undo');
    expect(undone.visit).toMatchObject({ state: 'waiting', call_reason: null });
    const date = (await today()).date;
    const insight = (
      await q.call('GET', `/organization/insight?from=${date}&to=${date}`, ctx.adminA.headers)
    ).json<InsightResponse>();
    expect(insight.out_of_order_calls[0]).toMatchObject({
      number: chosen.number,
      reason: 'urgent',
      undone: true,
    });
  });
});
