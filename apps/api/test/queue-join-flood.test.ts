import type { JoinInfoResponse } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { useCounterApp } from './support/checkin-helpers.js';
import { queueApi } from './support/queue-helpers.js';
import { PINNED_NOW } from './support/test-app.js';

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
});
