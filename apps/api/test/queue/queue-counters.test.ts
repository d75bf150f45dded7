import type { Counter, CounterActionResponse } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { useCounterApp } from '../support/checkin-helpers.js';
import { emptyQueue, queueApi } from '../support/queue-helpers.js';

describe('counters and their actions', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  const MINUTE = 60_000;

  const eventsOf = (visitId: string) =>
    s.db
      .selectFrom('visit_events')
      .select(['kind', 'from_state', 'to_state', 'counter_id', 'by_user'])
      .where('visit_id', '=', visitId)
      .orderBy('id')
      .execute();
  const visitRow = (visitId: string) =>
    s.db.selectFrom('visits').selectAll().where('id', '=', visitId).executeTakeFirstOrThrow();
  /** Walk-ins a minute apart (the pinned clock), so first come is first served. */
  async function walkIns(serviceId: string, names: string[]) {
    const out = [];
    for (const name of names) {
      s.clock.advance(MINUTE);
      out.push(await q.walkIn(ctx.staffA.headers, serviceId, name));
    }
    return out;
  }
  /** Ends every open visit of A, so each test starts on an empty line. */
  async function emptyLine() {
    await emptyQueue(s.db, ctx.a.orgId, s.clock.now(), { closeCounters: false });
  }

  it('the admin creates, lists, renames, re-assigns and retires counters; nothing is deleted', async () => {
    const made = await q.call('POST', '/queue/counters', ctx.adminA.headers, {
      name: 'Guichet 1',
      service_ids: [ctx.a.serviceId],
    });
    expect(made.statusCode, made.body).toBe(201);
    const counter = made.json<{ counter: Counter }>().counter;
    expect(counter).toMatchObject({
      name: 'Guichet 1',
      state: 'closed',
      service_ids: [ctx.a.serviceId],
      current_visit_id: null,
    });
    // Same name (any case): refused. Another organization's service: refused.
    const twice = await q.call('POST', '/queue/counters', ctx.adminA.headers, {
      name: 'guichet 1',
      service_ids: [ctx.a.serviceId],
    });
    expect(twice.statusCode).toBe(409);
    const foreign = await q.call('POST', '/queue/counters', ctx.adminA.headers, {
      name: 'Guichet X',
      service_ids: [ctx.b.serviceId],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().code).toBe('INVALID_COUNTER');
    // Staff may not define counters; another organization's admin does not reach this one.
    expect(
      (
        await q.call('POST', '/queue/counters', ctx.staffA.headers, {
          name: 'Guichet 2',
          service_ids: [ctx.a.serviceId],
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await q.call('PATCH', `/queue/counters/${counter.counter_id}`, ctx.staffB.headers, {
          name: 'x',
        })
      ).statusCode,
    ).toBe(403);

    const patched = await q.call(
      'PATCH',
      `/queue/counters/${counter.counter_id}`,
      ctx.adminA.headers,
      {
        name: 'Guichet 1 bis',
        service_ids: [ctx.a.serviceId, ctx.a.otherServiceId],
      },
    );
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().counter.service_ids.sort()).toEqual(
      [ctx.a.serviceId, ctx.a.otherServiceId].sort(),
    );
    const listed = await q.call('GET', '/queue/counters', ctx.staffA.headers);
    expect(listed.json().counters.map((c: Counter) => c.name)).toContain('Guichet 1 bis');

    const retired = await q.call(
      'PATCH',
      `/queue/counters/${counter.counter_id}`,
      ctx.adminA.headers,
      {
        active: false,
      },
    );
    expect(retired.statusCode).toBe(200);
    const after = await q.call('GET', '/queue/counters', ctx.adminA.headers);
    expect(after.json().counters.map((c: Counter) => c.counter_id)).not.toContain(
      counter.counter_id,
    );
    const row = await s.db
      .selectFrom('counters')
      .selectAll()
      .where('id', '=', counter.counter_id)
      .executeTakeFirstOrThrow();
    expect(row.retired_at).not.toBeNull();
    // A retired counter is gone for the counter screen too; its name is free again.
    expect((await q.act(ctx.staffA.headers, counter.counter_id, 'open')).statusCode).toBe(404);
    await q.createCounter(ctx.adminA.headers, 'Guichet 1 bis', [ctx.a.serviceId]);
  });

  it('call next: open counters only, the head of the line, then busy until started; an empty line answers visit null', async () => {
    await emptyLine();
    const counter = await q.createCounter(ctx.adminA.headers, 'Guichet 2', [ctx.a.serviceId]);
    const closed = await q.act(ctx.staffA.headers, counter.counter_id, 'call-next');
    expect(closed.statusCode).toBe(409);
    expect(closed.json().code).toBe('COUNTER_CLOSED');
    expect((await q.act(ctx.staffA.headers, counter.counter_id, 'open')).statusCode).toBe(200);

    const empty = await q.act(ctx.staffA.headers, counter.counter_id, 'call-next');
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json<CounterActionResponse>().visit).toBeNull();

    const [first, second] = await walkIns(ctx.a.serviceId, ['Un', 'Deux']);
    const call = await q.act(ctx.staffA.headers, counter.counter_id, 'call-next');
    expect(call.statusCode, call.body).toBe(200);
    const answer = call.json<CounterActionResponse>();
    expect(answer.visit).toMatchObject({
      visit_id: first?.visit_id,
      state: 'called',
      counter_name: 'Guichet 2',
      position: null,
    });
    expect(answer.counter.current_visit_id).toBe(first?.visit_id);

    const busy = await q.act(ctx.staffA.headers, counter.counter_id, 'call-next');
    expect(busy.statusCode).toBe(409);
    expect(busy.json().code).toBe('COUNTER_BUSY');
    // Pausing or closing while someone is called: refused, the visitor is not lost.
    for (const action of ['pause', 'close']) {
      const r = await q.act(ctx.staffA.headers, counter.counter_id, action);
      expect(r.statusCode).toBe(409);
      expect(r.json().code).toBe('COUNTER_BUSY');
    }
    const done = await q.act(ctx.staffA.headers, counter.counter_id, 'done');
    expect(done.statusCode).toBe(409);
    expect(done.json().code).toBe('VISIT_NOT_ACTIONABLE');

    s.clock.advance(MINUTE);
    const start = await q.act(ctx.staffA.headers, counter.counter_id, 'start');
    expect(start.json().visit.state).toBe('serving');
    expect((await q.act(ctx.staffA.headers, counter.counter_id, 'no-show')).json().code).toBe(
      'VISIT_NOT_ACTIONABLE',
    );
    // Call next while serving: the one served is done, the next one called.
    s.clock.advance(4 * MINUTE);
    const next = await q.act(ctx.staffA.headers, counter.counter_id, 'call-next');
    expect(next.json().visit.visit_id).toBe(second?.visit_id);
    const firstRow = await visitRow(first?.visit_id ?? '');
    expect(firstRow.state).toBe('done');
    expect(firstRow.ended_at?.getTime()).toBe(s.clock.now().getTime());
    expect(
      (await eventsOf(first?.visit_id ?? '')).map((e) => [e.kind, e.from_state, e.to_state]),
    ).toEqual([
      ['entered_staff', null, 'waiting'],
      ['called', 'waiting', 'called'],
      ['started', 'called', 'serving'],
      ['done', 'serving', 'done'],
    ]);
    const events = await eventsOf(first?.visit_id ?? '');
    expect(
      events
        .slice(1)
        .every((e) => e.counter_id === counter.counter_id && e.by_user === ctx.staffA.id),
    ).toBe(true);

    // Start, done; then the counter holds nobody.
    await q.act(ctx.staffA.headers, counter.counter_id, 'start');
    const finished = await q.act(ctx.staffA.headers, counter.counter_id, 'done');
    expect(finished.json().visit.state).toBe('done');
    expect(finished.json().counter.current_visit_id).toBeNull();
    for (const action of ['start', 'done', 'recall', 'no-show']) {
      const r = await q.act(ctx.staffA.headers, counter.counter_id, action);
      expect(r.statusCode, action).toBe(409);
      expect(r.json().code, action).toBe('COUNTER_IDLE');
    }
    const paused = await q.act(ctx.staffA.headers, counter.counter_id, 'pause');
    expect(paused.json().counter.state).toBe('paused');
    expect((await q.act(ctx.staffA.headers, counter.counter_id, 'call-next')).json().code).toBe(
      'COUNTER_CLOSED',
    );
    // Another organization's staff cannot act on it; nobody signed out can.
    expect((await q.act(ctx.staffB.headers, counter.counter_id, 'open')).statusCode).toBe(403);
    expect(
      (await q.call('POST', `/queue/counters/${counter.counter_id}/open`, null)).statusCode,
    ).toBe(401);
  });

  it('recall up to the allowed number, then the visitor becomes a no-show; no-show once recalled enough', async () => {
    await emptyLine();
    const counter = await q.openCounter(ctx.adminA.headers, 'Guichet 3', [ctx.a.serviceId]);
    const [a, b] = await walkIns(ctx.a.serviceId, ['R1', 'R2']);
    await q.act(ctx.staffA.headers, counter.counter_id, 'call-next');
    // max_recalls is 2 by default: two recalls, the third press ends the call.
    for (const n of [1, 2]) {
      s.clock.advance(MINUTE);
      const r = await q.act(ctx.staffA.headers, counter.counter_id, 'recall');
      expect(r.json().visit).toMatchObject({ state: 'called', recalls: n });
      expect(r.json().visit.called_at).toBe(s.clock.now().toISOString());
    }
    const third = await q.act(ctx.staffA.headers, counter.counter_id, 'recall');
    expect(third.json().visit.state).toBe('no_show');
    expect((await eventsOf(a?.visit_id ?? '')).map((e) => e.kind)).toEqual([
      'entered_staff',
      'called',
      'recalled',
      'recalled',
      'no_show_after_recalls',
    ]);
    const called = await q.act(ctx.staffA.headers, counter.counter_id, 'call-next');
    expect(called.json().visit.visit_id).toBe(b?.visit_id);
    // No-show only after the recalls the organization set (decision 118).
    const early = await q.act(ctx.staffA.headers, counter.counter_id, 'no-show');
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('NO_SHOW_TOO_EARLY');
    await q.act(ctx.staffA.headers, counter.counter_id, 'recall');
    await q.act(ctx.staffA.headers, counter.counter_id, 'recall');
    const noShow = await q.act(ctx.staffA.headers, counter.counter_id, 'no-show');
    expect(noShow.json().visit.state).toBe('no_show');
    expect(noShow.json().counter.current_visit_id).toBeNull();
  });

  it('transfer: the held visit goes to the other line keeping its number, queued now, no slot', async () => {
    await emptyLine();
    const here = await q.openCounter(ctx.adminA.headers, 'Guichet 4', [ctx.a.serviceId]);
    const there = await q.openCounter(ctx.adminA.headers, 'Guichet 5', [ctx.a.otherServiceId]);
    const [v] = await walkIns(ctx.a.serviceId, ['T1']);
    await q.act(ctx.staffA.headers, here.counter_id, 'call-next');
    await q.act(ctx.staffA.headers, here.counter_id, 'start');
    const same = await q.act(ctx.staffA.headers, here.counter_id, 'transfer', {
      service_id: ctx.a.serviceId,
    });
    expect(same.json().code).toBe('VISIT_NOT_ACTIONABLE');
    const foreign = await q.act(ctx.staffA.headers, here.counter_id, 'transfer', {
      service_id: ctx.b.serviceId,
    });
    expect(foreign.statusCode).toBe(404);
    s.clock.advance(MINUTE);
    const moved = await q.act(ctx.staffA.headers, here.counter_id, 'transfer', {
      service_id: ctx.a.otherServiceId,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const nv = moved.json<CounterActionResponse>().visit;
    expect(nv).toMatchObject({
      number: v?.number,
      service_id: ctx.a.otherServiceId,
      state: 'waiting',
      position: 1,
      slot_start: null,
    });
    expect(moved.json().counter.current_visit_id).toBeNull();
    const old = await visitRow(v?.visit_id ?? '');
    expect(old.state).toBe('transferred');
    const fresh = await visitRow(nv?.visit_id ?? '');
    expect(fresh.transferred_from).toBe(old.id);
    expect(fresh.queued_at.getTime()).toBe(s.clock.now().getTime());
    // The other counter calls them, with the same number.
    const call = await q.act(ctx.staffA.headers, there.counter_id, 'call-next');
    expect(call.json().visit).toMatchObject({ visit_id: nv?.visit_id, number: v?.number });
  });

  it('a counter never calls a visit of a service it does not serve', async () => {
    await emptyLine();
    const only15 = await q.openCounter(ctx.adminA.headers, 'Guichet 6', [ctx.a.serviceId]);
    // Only visits of the other service wait, the earliest first.
    await walkIns(ctx.a.otherServiceId, ['O1', 'O2']);
    const nobody = await q.act(ctx.staffA.headers, only15.counter_id, 'call-next');
    expect(nobody.statusCode).toBe(200);
    expect(nobody.json().visit).toBeNull();
    const [mine] = await walkIns(ctx.a.serviceId, ['M1']);
    const call = await q.act(ctx.staffA.headers, only15.counter_id, 'call-next');
    expect(call.json().visit.visit_id).toBe(mine?.visit_id);
    const waiting = await s.db
      .selectFrom('visits')
      .select('service_id')
      .where('organization_id', '=', ctx.a.orgId)
      .where('state', '=', 'waiting')
      .execute();
    expect(waiting.map((w) => w.service_id)).toEqual([ctx.a.otherServiceId, ctx.a.otherServiceId]);
  });

  it('today: held, then waiting in calling order with places and estimates, then ended; operators name the organization', async () => {
    await emptyLine();
    const counter = await q.openCounter(ctx.adminA.headers, 'Guichet 7', [ctx.a.serviceId]);
    const [w1, w2, w3] = await walkIns(ctx.a.serviceId, ['D1', 'D2', 'D3']);
    await q.act(ctx.staffA.headers, counter.counter_id, 'call-next');
    const res = await q.call('GET', '/queue/today', ctx.staffA.headers);
    expect(res.statusCode, res.body).toBe(200);
    const day = res.json();
    const open = day.visits.filter((v: { state: string }) =>
      ['waiting', 'called', 'serving'].includes(v.state),
    );
    expect(open.map((v: { visit_id: string }) => v.visit_id)).toEqual([
      w1?.visit_id,
      w2?.visit_id,
      w3?.visit_id,
    ]);
    expect(open.map((v: { position: number | null }) => v.position)).toEqual([null, 1, 2]);
    expect(open[1].estimate).toMatchObject({
      min_minutes: expect.any(Number),
      max_minutes: expect.any(Number),
    });
    expect(
      day.counters.find((c: Counter) => c.counter_id === counter.counter_id).current_visit_id,
    ).toBe(w1?.visit_id);
    expect((await q.call('GET', '/queue/today', ctx.operator.headers)).statusCode).toBe(400);
    expect(
      (await q.call('GET', `/queue/today?organization_id=${ctx.a.orgId}`, ctx.operator.headers))
        .statusCode,
    ).toBe(200);
    expect(
      (await q.call('GET', `/queue/today?organization_id=${ctx.a.orgId}`, ctx.staffB.headers))
        .statusCode,
    ).toBe(403);
  });
});
