// engines: postgres and pglite — the categories are a text[] column, read and written on both engines
import type {
  CounterActionResponse,
  QueueSettings,
  QueueTodayResponse,
  QueueVisit,
} from '@qless/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { useCounterApp } from '../support/checkin-helpers.js';
import { emptyQueue, queueApi } from '../support/queue-helpers.js';

/**
 * The fair order at the counters (decision 138): the organization's categories, its ratio
 * counted per counter, the ageing ceiling; the category given by staff; each call's kind kept.
 */
describe('a fair order at the counters', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  const MINUTE = 60_000;

  const settings = async () =>
    (await q.call('GET', '/queue/settings', ctx.adminA.headers)).json<{
      settings: QueueSettings;
    }>().settings;
  const put = async (patch: Partial<QueueSettings>) =>
    q.call('PUT', '/queue/settings', ctx.adminA.headers, { ...(await settings()), ...patch });
  /** A walk-in added by staff a minute after the one before, with a category or none. */
  async function walkIn(name: string, category: string | null = null): Promise<QueueVisit> {
    s.clock.advance(MINUTE);
    const res = await q.call('POST', '/queue/visits', ctx.staffA.headers, {
      service_id: ctx.a.serviceId,
      name,
      ...(category ? { priority_category: category } : {}),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ visit: QueueVisit }>().visit;
  }
  /** Call next at a counter (finishing the one it serves), then start: the name called. */
  async function callNext(counterId: string): Promise<string> {
    const res = await q.act(ctx.staffA.headers, counterId, 'call-next');
    expect(res.statusCode, res.body).toBe(200);
    const visit = res.json<CounterActionResponse>().visit;
    if (!visit) return '(nobody)';
    expect((await q.act(ctx.staffA.headers, counterId, 'start')).statusCode).toBe(200);
    return visit.customer_name;
  }
  const counters: string[] = [];

  beforeEach(async () => {
    await emptyQueue(s.db, ctx.a.orgId, s.clock.now());
    s.clock.advance(24 * 60 * MINUTE); // a new day: no earlier calls count
    if (counters.length === 0) {
      for (const name of ['Fair 1', 'Fair 2']) {
        counters.push(
          (await q.createCounter(ctx.adminA.headers, name, [ctx.a.serviceId])).counter_id,
        );
      }
    }
    for (const id of counters) {
      const res = await q.act(ctx.staffA.headers, id, 'open');
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('keeps the settings, refuses bad ones, and keeps them when an older client saves', async () => {
    expect(await settings()).toMatchObject({
      priority_categories: [],
      premium_label: null,
      ratio: null,
      ageing_ceiling_minutes: null,
    });
    const fair = {
      priority_categories: [
        'elderly',
        'pregnant',
        'premium',
      ] as QueueSettings['priority_categories'],
      premium_label: 'Clients privilégiés',
      ratio: { priority: 1, others: 2 },
      ageing_ceiling_minutes: 45,
    };
    expect((await put(fair)).statusCode).toBe(200);
    expect(await settings()).toMatchObject(fair);
    for (const bad of [
      { ratio: { priority: 1, others: 11 } },
      { ratio: { priority: 0, others: 2 } },
      { ageing_ceiling_minutes: 5 },
      { priority_categories: ['vip'] },
      { premium_label: '' },
    ]) {
      const res = await put(bad as Partial<QueueSettings>);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().code).toBe('INVALID_QUEUE_SETTINGS');
    }
    const older: Partial<QueueSettings> = await settings();
    for (const field of [
      'priority_categories',
      'premium_label',
      'ratio',
      'ageing_ceiling_minutes',
    ] as const) {
      delete older[field];
    }
    const kept = await q.call('PUT', '/queue/settings', ctx.adminA.headers, older);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(await settings()).toMatchObject(fair);
    expect((await put({ ratio: null, ageing_ceiling_minutes: null })).statusCode).toBe(200);
    expect(await settings()).toMatchObject({ ratio: null, ageing_ceiling_minutes: null });
  });

  it('takes a category from staff only when the organization serves it first', async () => {
    await put({ priority_categories: ['elderly'], ratio: { priority: 1, others: 2 } });
    const refused = await q.call('POST', '/queue/visits', ctx.staffA.headers, {
      service_id: ctx.a.serviceId,
      name: 'Maman Ngo',
      priority_category: 'pregnant',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('PRIORITY_CATEGORY_NOT_SERVED');
    const unknown = await q.call('POST', '/queue/visits', ctx.staffA.headers, {
      service_id: ctx.a.serviceId,
      name: 'Maman Ngo',
      priority_category: 'vip',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('PRIORITY_CATEGORY_NOT_SERVED');
    const elder = await walkIn('Papa Fon', 'elderly');
    expect(elder.priority_category).toBe('elderly');
  });

  it('holds "1 priority, then 2 others" on each counter\'s own calls, and keeps each call\'s kind', async () => {
    await put({
      priority_categories: ['elderly', 'pregnant'],
      ratio: { priority: 1, others: 2 },
      ageing_ceiling_minutes: null,
    });
    for (const name of ['R1', 'R2', 'R3', 'R4', 'R5']) await walkIn(name);
    await walkIn('P1', 'elderly');
    await walkIn('P2', 'pregnant');
    await walkIn('P3', 'elderly');
    // The line as staff see it: played forward from the branch's calls (none yet today).
    const today = (
      await q.call('GET', '/queue/today', ctx.staffA.headers)
    ).json<QueueTodayResponse>();
    const place = (name: string) =>
      today.visits.find((v) => v.customer_name === name)?.position ?? null;
    expect(['P1', 'R1', 'R2', 'P2', 'R3', 'R4', 'P3', 'R5'].map(place)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    const [one, two] = counters as [string, string];
    // Counter 1: P, R, R; counter 2 counts its own calls: a priority visitor first.
    expect([await callNext(one), await callNext(one), await callNext(one)]).toEqual([
      'P1',
      'R1',
      'R2',
    ]);
    expect(await callNext(two)).toBe('P2');
    // Each counter's list is its own order: counter 1 owes a priority call, counter 2 does not.
    const lists = (
      await q.call('GET', '/queue/today', ctx.staffA.headers)
    ).json<QueueTodayResponse>();
    const nameOf = new Map(lists.visits.map((v) => [v.visit_id, v.customer_name]));
    const next = (id: string) =>
      (lists.counters.find((c) => c.counter_id === id)?.calls_next ?? []).map((v) => nameOf.get(v));
    expect(next(one)).toEqual(['P3', 'R3', 'R4', 'R5']);
    expect(next(two)).toEqual(['R3', 'R4', 'P3', 'R5']);
    expect([await callNext(one), await callNext(two), await callNext(two)]).toEqual([
      'P3',
      'R3',
      'R4',
    ]);
    const kinds = await s.db
      .selectFrom('visit_events as e')
      .innerJoin('visits as v', 'v.id', 'e.visit_id')
      .select(['v.customer_name', 'e.call_kind'])
      .where('e.organization_id', '=', ctx.a.orgId)
      .where('e.kind', '=', 'called')
      .where('e.call_kind', 'is not', null)
      .where('v.customer_name', 'in', ['P1', 'P2', 'P3', 'R1', 'R2', 'R3', 'R4', 'R5'])
      .orderBy('e.id')
      .execute();
    expect(kinds.map((k) => `${k.customer_name}:${k.call_kind}`)).toEqual([
      'P1:priority',
      'R1:regular',
      'R2:regular',
      'P2:priority',
      'P3:priority',
      'R3:regular',
      'R4:regular',
    ]);
  });

  it('counts a call taken back by Undo not at all, and the call made again once', async () => {
    await put({
      priority_categories: ['emergency'],
      ratio: { priority: 2, others: 1 },
      ageing_ceiling_minutes: null,
    });
    await walkIn('Reg');
    await walkIn('Urg1', 'emergency');
    await walkIn('Urg2', 'emergency');
    const [one] = counters as [string];
    const first = await q.act(ctx.staffA.headers, one, 'call-next');
    expect(first.json<CounterActionResponse>().visit?.customer_name).toBe('Urg1');
    expect((await q.act(ctx.staffA.headers, one, 'undo')).statusCode).toBe(200);
    // Urg1 called again: one priority call so far, so a second priority visitor is due.
    expect(await callNext(one)).toBe('Urg1');
    expect(await callNext(one)).toBe('Urg2');
    expect(await callNext(one)).toBe('Reg');
  });

  it('lets nobody wait past the ceiling behind later arrivals, even with priority first', async () => {
    await put({
      priority_categories: ['disability'],
      ratio: { priority: 1, others: 0 },
      ageing_ceiling_minutes: 30,
    });
    await walkIn('Early');
    await walkIn('Later');
    await walkIn('Chair', 'disability');
    const [one] = counters as [string];
    expect(await callNext(one)).toBe('Chair');
    await walkIn('Crutch', 'disability');
    // Early has waited 30 minutes, the ceiling: ahead of the priority visitor who came after;
    // Later (29 minutes) is not there yet.
    s.clock.advance(27 * MINUTE);
    expect(await callNext(one)).toBe('Early');
    expect(await callNext(one)).toBe('Crutch');
    expect(await callNext(one)).toBe('Later');
  });
});
