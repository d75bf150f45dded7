// engines: postgres and pglite — the join page's ceilings under the queue lock (decision 125)
import type { JoinInfoResponse } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { useCounterApp } from '../support/checkin-helpers.js';
import { queueApi } from '../support/queue-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

/** The defaults (decision 125): QUEUE_SELF_JOINS_PER_MINUTE and QUEUE_SELF_JOINS_WAITING. */
const PER_MINUTE = 15;
const WAITING = 40;

describe('the join page flooded (issue 31, decision 125)', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);

  const enableJoin = async (headers: Record<string, string>, organizationId?: string) => {
    const scope = organizationId ? `?organization_id=${organizationId}` : '';
    const settings = await q.call('GET', `/queue/settings${scope}`, headers);
    const put = await q.call('PUT', `/queue/settings${scope}`, headers, {
      ...settings.json().settings,
      join_enabled: true,
    });
    expect(put.statusCode, put.body).toBe(200);
  };
  const join = (organizationId: string, serviceId: string, ip: string, name = 'Walk In') =>
    q.call('POST', `/join/${organizationId}`, null, { service_id: serviceId, name }, ip);
  /** One join from each of 60 addresses, sent at once; the statuses and codes by count. */
  const flood = async (round: number) => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        join(ctx.a.orgId, ctx.a.serviceId, `10.31.${i}.1`, `Fake ${round}-${i}`),
      ),
    );
    const tally: Record<string, number> = {};
    for (const a of answers) {
      const key = a.statusCode === 201 ? '201' : `${a.statusCode} ${a.json().code}`;
      tally[key] = (tally[key] ?? 0) + 1;
    }
    return { tally, answers };
  };
  const waitingSelfJoins = async (serviceId: string) =>
    (
      await s.db
        .selectFrom('visits')
        .select('id')
        .where('service_id', '=', serviceId)
        .where('source', '=', 'self')
        .where('state', '=', 'waiting')
        .execute()
    ).length;

  it('60 addresses flooding one line are held to the ceilings; a real visitor then gets the clear refusal', async () => {
    await enableJoin(ctx.adminA.headers);
    try {
      // A minute takes PER_MINUTE joins from the page, whoever sends them.
      const first = await flood(1);
      expect(first.tally).toEqual({ '201': PER_MINUTE, '429 QUEUE_JOINS_BUSY': 60 - PER_MINUTE });
      const busy = first.answers.find((a) => a.statusCode === 429);
      const wait = Number(busy?.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      expect(busy?.json().message).toMatch(/wait a minute/i);

      s.clock.set(new Date(Date.parse(PINNED_NOW) + 61_000).toISOString());
      expect((await flood(2)).tally).toEqual({
        '201': PER_MINUTE,
        '429 QUEUE_JOINS_BUSY': 60 - PER_MINUTE,
      });
      // Then the line holds WAITING of them, and no more however slowly they come.
      s.clock.set(new Date(Date.parse(PINNED_NOW) + 122_000).toISOString());
      const third = await flood(3);
      expect(third.tally).toEqual({
        '201': WAITING - 2 * PER_MINUTE,
        '409 SELF_JOIN_LINE_FULL': 60 - (WAITING - 2 * PER_MINUTE),
      });
      expect(await waitingSelfJoins(ctx.a.serviceId)).toBe(WAITING);

      // A real visitor from an address of their own: the clear refusal, nothing entered.
      const real = await join(ctx.a.orgId, ctx.a.serviceId, '10.99.0.1', 'Real Person');
      expect(real.statusCode).toBe(409);
      expect(real.json()).toMatchObject({ code: 'SELF_JOIN_LINE_FULL' });
      expect(real.json().message).toMatch(/ask at the desk/i);
      expect(await waitingSelfJoins(ctx.a.serviceId)).toBe(WAITING);
      // The desk still adds them; another service of the branch still takes joins.
      const desk = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Real Person');
      expect(desk.state).toBe('waiting');
      expect((await join(ctx.a.orgId, ctx.a.otherServiceId, '10.99.0.2')).statusCode).toBe(201);
      // The page says how many wait: the flood did not reach past the ceiling.
      const info = (await q.call('GET', `/join/${ctx.a.orgId}`, null)).json<JoinInfoResponse>();
      expect(info.services.find((x) => x.service_id === ctx.a.serviceId)?.waiting).toBe(
        WAITING + 1,
      );

      // Another organization's page is not held by this one's flood.
      await enableJoin(ctx.operator.headers, ctx.b.orgId);
      expect((await join(ctx.b.orgId, ctx.b.serviceId, '10.99.0.3')).statusCode).toBe(201);
    } finally {
      s.clock.set(PINNED_NOW);
    }
  });

  it('staff clear the joins from the poster never called in one act: one event each, nothing else touched', async () => {
    // Left by the first test: WAITING self-joins on A's service (then one on its other
    // service and the desk's walk-in), one self-join at B.
    const at = (minutes: number) =>
      s.clock.set(new Date(Date.parse(PINNED_NOW) + minutes * 60_000).toISOString());
    const clear = (headers: Record<string, string> | null, body: unknown, scope = '') =>
      q.call('POST', `/queue/self-joins/clear${scope}`, headers, body);
    try {
      // One of the flood is called (first come): a person in front of a clerk stays.
      at(10);
      const counter = await q.openCounter(ctx.adminA.headers, 'Guichet 1', [ctx.a.serviceId]);
      const call = await q.act(ctx.staffA.headers, counter.counter_id, 'call-next');
      expect(call.statusCode, call.body).toBe(200);
      at(20);
      const late = await join(ctx.a.orgId, ctx.a.serviceId, '10.98.0.1', 'Late Fake');
      expect(late.statusCode, late.body).toBe(201);
      const lateId = late.json().turn.visit_id as string;

      // Another organization's staff are refused; their own clear touches only theirs.
      const foreign = await clear(ctx.staffB.headers, {}, `?organization_id=${ctx.a.orgId}`);
      expect(foreign.statusCode).toBe(403);
      expect((await clear(ctx.staffB.headers, {})).json()).toEqual({ cleared: 1 });
      expect((await clear(null, {})).statusCode).toBe(401);
      const bad = await clear(ctx.staffA.headers, { within_minutes: 0 });
      expect(bad.statusCode).toBe(400);
      expect(JSON.stringify(bad.json())).toContain('INVALID_CLEAR_WINDOW');

      // Those of the last 5 minutes: only the late one.
      const recent = await clear(ctx.staffA.headers, { within_minutes: 5 });
      expect(recent.statusCode, recent.body).toBe(200);
      expect(recent.json()).toEqual({ cleared: 1 });
      const events = await s.db
        .selectFrom('visit_events')
        .selectAll()
        .where('visit_id', '=', lateId)
        .orderBy('id')
        .execute();
      expect(events.at(-1)).toMatchObject({
        kind: 'cleared_by_staff',
        from_state: 'waiting',
        to_state: 'left',
        by_user: ctx.staffA.id,
      });

      // Then all of today's: the flood left, the called one, the desk's walk-in stay.
      const all = await clear(ctx.staffA.headers, {});
      expect(all.json()).toEqual({ cleared: WAITING - 1 + 1 });
      const rows = await s.db
        .selectFrom('visits')
        .select(['source', 'state'])
        .where('organization_id', '=', ctx.a.orgId)
        .where('state', 'in', ['waiting', 'called'])
        .execute();
      expect(rows.sort((x, y) => x.state.localeCompare(y.state))).toEqual([
        { source: 'self', state: 'called' },
        { source: 'staff', state: 'waiting' },
      ]);
      const cleared = await s.db
        .selectFrom('visit_events')
        .select('id')
        .where('organization_id', '=', ctx.a.orgId)
        .where('kind', '=', 'cleared_by_staff')
        .execute();
      expect(cleared).toHaveLength(WAITING + 1);
      expect((await clear(ctx.staffA.headers, {})).json()).toEqual({ cleared: 0 });
      // The line has room again for a real visitor.
      at(30);
      expect((await join(ctx.a.orgId, ctx.a.serviceId, '10.98.0.2', 'Real')).statusCode).toBe(201);
    } finally {
      s.clock.set(PINNED_NOW);
    }
  });
});
