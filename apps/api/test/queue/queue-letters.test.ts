import type { QueueTodayResponse } from '@qless/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { useCounterApp } from '../support/checkin-helpers.js';
import { queueApi } from '../support/queue-helpers.js';

/**
 * Letters when the organization chooses none (issue 30 item 7, decision 119): each service
 * gets its own, by creation order, and Queue setup shows it before the first visit — not
 * "A" in every field, and not whichever service happened to be visited first.
 */
describe('the letters of a queue that chose none', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  let third: string;

  const today = async () => {
    const res = await q.call('GET', '/queue/today', ctx.adminA.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<QueueTodayResponse>().services;
  };
  const plan = async () =>
    Object.fromEntries((await today()).map((v) => [v.service_id, [v.letter, v.planned_letter]]));

  beforeAll(async () => {
    const row = await s.db
      .insertInto('services')
      .values({ organization_id: ctx.a.orgId, name: 'Cards', duration_minutes: 10 })
      .returning('id')
      .executeTakeFirstOrThrow();
    third = row.id;
    // Creation order: the first service, the other, then Cards; none has a letter.
    const order = [ctx.a.serviceId, ctx.a.otherServiceId, third];
    for (const [i, id] of order.entries()) {
      await s.db
        .updateTable('services')
        .set({ queue_letter: null, created_at: new Date(Date.UTC(2026, 0, 1, 0, i)) })
        .where('id', '=', id)
        .execute();
    }
  });

  it('setup shows a distinct letter planned for each service, in creation order', async () => {
    expect(await plan()).toEqual({
      [ctx.a.serviceId]: [null, 'A'],
      [ctx.a.otherServiceId]: [null, 'B'],
      [third]: [null, 'C'],
    });
  });

  it('the first visit of a service takes the letter shown, whatever service came first', async () => {
    const cards = await q.walkIn(ctx.staffA.headers, third, 'Ada');
    expect(cards.number).toBe('C-001');
    const other = await q.walkIn(ctx.staffA.headers, ctx.a.otherServiceId, 'Bello');
    expect(other.number).toBe('B-001');
    const first = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Chantal');
    expect(first.number).toBe('A-001');
    expect(await plan()).toEqual({
      [ctx.a.serviceId]: ['A', 'A'],
      [ctx.a.otherServiceId]: ['B', 'B'],
      [third]: ['C', 'C'],
    });
  });

  it('a letter the admin chooses is shown as chosen, and later plans skip it', async () => {
    await s.db
      .updateTable('services')
      .set({ queue_letter: null })
      .where('id', 'in', [ctx.a.otherServiceId, third])
      .execute();
    const res = await q.call('PUT', `/queue/services/${third}/letter`, ctx.adminA.headers, {
      letter: 'B',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await plan()).toEqual({
      [ctx.a.serviceId]: ['A', 'A'],
      [ctx.a.otherServiceId]: [null, 'C'],
      [third]: ['B', 'B'],
    });
  });
});
