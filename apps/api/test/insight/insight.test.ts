import type { InsightResponse } from '@qless/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findBranches,
  insight,
  insightOptions,
} from '../../src/modules/insight/insight.repository.js';
import { TODAY, useCounterApp, YESTERDAY } from '../support/checkin-helpers.js';
import { parseCsv } from '../support/csv.js';
import { queueApi } from '../support/queue-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

const MINUTE = 60_000;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = (s.length - 1) / 2;
  return ((s[Math.floor(m)] ?? 0) + (s[Math.ceil(m)] ?? 0)) / 2;
};

describe('insight', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  const url = (query: string) => `/organization/insight?${query}`;
  const range = `from=${YESTERDAY}&to=${TODAY}`;
  // Whatever zone the process runs in, figures are the branch's: run in an odd one.
  const savedTz = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Pacific/Chatham';
  });
  afterAll(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  /** Wait and service minutes of the visits the test moved, as the test itself timed them. */
  const waits: number[] = [];
  const services: number[] = [];
  let counterId = '';

  beforeAll(async () => {
    s.clock.set(PINNED_NOW); // 09:30 in Douala
    // No recall needed before a no-show here (decision 118: the organization's setting).
    await s.db
      .updateTable('organizations')
      .set({ queue_max_recalls: 0 })
      .where('id', '=', ctx.a.orgId)
      .execute();
    const counter = await q.openCounter(ctx.adminA.headers, 'Guichet 1', [ctx.a.serviceId]);
    counterId = counter.counter_id;
    // A booked visitor checks in; three walk-ins follow a minute apart; then the counter works.
    const booked = await s.book(ctx.a, { name: 'Ndzi Paul' });
    expect((await s.checkIn(ctx.staffA.headers, { code: booked.code })).statusCode).toBe(200);
    const arrivals = new Map<string, number>([]);
    const bookedVisit = await s.db
      .selectFrom('visits')
      .select(['id'])
      .where('booking_id', '=', booked.id)
      .executeTakeFirstOrThrow();
    arrivals.set(bookedVisit.id, s.clock.now().getTime());
    for (const name of ['=HYPERLINK("http://x")', 'Ngo, "Mama" Ada', 'Ébodé Jean']) {
      s.clock.advance(MINUTE);
      const v = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, name);
      arrivals.set(v.visit_id, s.clock.now().getTime());
    }
    const callNext = async () => {
      const res = await q.act(ctx.staffA.headers, counterId, 'call-next');
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json<{ visit: { visit_id: string } }>().visit.visit_id;
      const calledAt = s.clock.now().getTime();
      waits.push((calledAt - (arrivals.get(id) ?? Number.NaN)) / MINUTE);
      return calledAt;
    };
    const act = async (action: string) =>
      expect((await q.act(ctx.staffA.headers, counterId, action)).statusCode).toBe(200);
    // 1st: called after 4 min, served 7 min (started 2 min after the call).
    s.clock.advance(MINUTE);
    let calledAt = await callNext();
    s.clock.advance(2 * MINUTE);
    await act('start');
    s.clock.advance(5 * MINUTE);
    await act('done');
    services.push((s.clock.now().getTime() - calledAt) / MINUTE);
    // 2nd: called, never comes.
    s.clock.advance(MINUTE);
    await callNext();
    s.clock.advance(3 * MINUTE);
    await act('no-show');
    // 3rd: served 12 min; the 4th is still waiting.
    calledAt = await callNext();
    await act('start');
    s.clock.advance(12 * MINUTE);
    await act('done');
    services.push((s.clock.now().getTime() - calledAt) / MINUTE);
    // Bookings of the range that never came or were cancelled, and one outside the range.
    await s.book(ctx.a, { status: 'no_show', date: YESTERDAY });
    const cancelled = await s.book(ctx.a, { status: 'cancelled' });
    await s.db
      .updateTable('bookings')
      .set({ cancelled_by: 'customer' })
      .where('id', '=', cancelled.id)
      .execute();
    // A hold whose payment failed ends "cancelled" with nobody having cancelled it, never
    // confirmed: not a cancellation, and not a booking of the CSV.
    const abandoned = await s.book(ctx.a, { status: 'cancelled' });
    await s.db
      .updateTable('bookings')
      .set({ confirmed_at: null, ticket_code: null })
      .where('id', '=', abandoned.id)
      .execute();
    await s.book(ctx.a, { status: 'no_show', date: '2026-03-02' });
  });

  it('counts, medians, the heat map, the days, the counter and the service, from the real queue', async () => {
    const res = await q.call('GET', url(range), ctx.adminA.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<InsightResponse>();
    expect(body.range).toEqual({ from: YESTERDAY, to: TODAY, days: 2 });
    expect(body.branches).toEqual([
      { id: ctx.a.orgId, name: expect.any(String), branch_name: null, time_zone: 'Africa/Douala' },
    ]);
    expect(waits).toHaveLength(3);
    expect(body.totals).toEqual({
      visits: 4,
      booked: 1,
      walk_in: 3,
      served: 2,
      no_show_visits: 1,
      left: 0,
      no_show_bookings: 1,
      cancelled_bookings: 1,
      // (1 visit + 1 booking) of (4 visits + 1 booking that never came)
      no_show_rate: 0.4,
      wait_minutes: { count: 3, median: median(waits), p90: expect.any(Number) },
      service_minutes: { count: 2, median: median(services), p90: expect.any(Number) },
    });
    // p90 by linear interpolation, as percentile_cont does: 7 + 0.9 × (12 − 7).
    expect(services).toEqual([7, 12]);
    expect(body.totals.service_minutes.p90).toBe(11.5);
    // Every arrival was between 09:30 and 09:33 in Douala on Wednesday 4 March (08:3x UTC;
    // 21:xx in the process's own Pacific/Chatham).
    expect(body.heat_map).toEqual([{ weekday: 3, hour: 9, arrivals: 4 }]);
    expect(body.daily).toEqual([
      { date: YESTERDAY, visits: 0, served: 0, no_shows: 1, median_wait_minutes: null },
      { date: TODAY, visits: 4, served: 2, no_shows: 1, median_wait_minutes: median(waits) },
    ]);
    expect(body.counters).toEqual([
      {
        counter_id: counterId,
        organization_id: ctx.a.orgId,
        name: 'Guichet 1',
        served: 2,
        median_service_minutes: 9.5,
      },
    ]);
    expect(body.services).toHaveLength(1);
    expect(body.services[0]).toMatchObject({ service_id: ctx.a.serviceId, visits: 4, served: 2 });
    expect(body.by_branch).toEqual([
      expect.objectContaining({ organization_id: ctx.a.orgId, visits: 4, no_show_bookings: 1 }),
    ]);
    expect(body.options.counters).toEqual([
      { id: counterId, organization_id: ctx.a.orgId, name: 'Guichet 1', retired: false },
    ]);
  });

  it('feedback of the visits done: count, average and the latest comments, as sent', async () => {
    const done = await s.db
      .selectFrom('visits')
      .select(['id', 'service_id', 'visit_date'])
      .where('organization_id', '=', ctx.a.orgId)
      .where('state', '=', 'done')
      .orderBy('ended_at')
      .execute();
    expect(done).toHaveLength(2);
    const words = [
      { rating: 5, comment: '<b>Très</b> rapide' },
      { rating: 2, comment: null },
    ];
    for (const [i, v] of done.entries()) {
      const word = words[i] ?? { rating: 1, comment: null };
      await s.db
        .insertInto('visit_feedback')
        .values({
          visit_id: v.id,
          organization_id: ctx.a.orgId,
          service_id: v.service_id,
          visit_date: v.visit_date,
          rating: word.rating,
          comment: word.comment,
          locale: 'fr',
          created_at: new Date(PINNED_NOW),
        })
        .execute();
    }
    const res = await q.call('GET', url(range), ctx.adminA.headers);
    expect(res.json<InsightResponse>().feedback).toEqual({
      count: 2,
      average: 3.5,
      distribution: { 1: 0, 2: 1, 3: 0, 4: 0, 5: 1 },
      comments: [
        {
          rating: 5,
          comment: '<b>Très</b> rapide',
          date: TODAY,
          organization_id: ctx.a.orgId,
          service_id: ctx.a.serviceId,
          service: expect.any(String),
          service_fr: null,
        },
      ],
    });
    // Another counter's figures leave this one's words out.
    const other = await q.call(
      'GET',
      url(`${range}&counter_id=${counterId}&service_id=${ctx.a.otherServiceId}`),
      ctx.adminA.headers,
    );
    expect(other.json<InsightResponse>().feedback.count).toBe(0);
  });

  it('filters by counter (booking figures do not apply) and by service', async () => {
    const byCounter = await q.call(
      'GET',
      url(`${range}&counter_id=${counterId}`),
      ctx.adminA.headers,
    );
    expect(byCounter.statusCode, byCounter.body).toBe(200);
    const totals = byCounter.json<InsightResponse>().totals;
    // The waiting visitor was called by no counter.
    expect(totals).toMatchObject({
      visits: 3,
      served: 2,
      no_show_visits: 1,
      no_show_bookings: null,
      cancelled_bookings: null,
    });
    const other = await q.call(
      'GET',
      url(`${range}&service_id=${ctx.a.otherServiceId}`),
      ctx.adminA.headers,
    );
    expect(other.statusCode).toBe(200);
    expect(other.json<InsightResponse>().totals).toMatchObject({ visits: 0, served: 0 });
    expect(other.json<InsightResponse>().totals.wait_minutes).toEqual({
      count: 0,
      median: null,
      p90: null,
    });
  });

  it("exports the rows behind the screen's filters: a service, a counter", async () => {
    const csv = async (query: string) => {
      const res = await q.call(
        'GET',
        `/organization/insight/export.csv?${range}&${query}`,
        ctx.adminA.headers,
      );
      expect(res.statusCode, res.body).toBe(200);
      return parseCsv(res.rawPayload.toString('utf8').slice(1)).length - 1;
    };
    const all = await csv('kind=visits');
    expect(all).toBe(4);
    expect(await csv(`kind=visits&service_id=${ctx.a.serviceId}`)).toBe(4);
    expect(await csv(`kind=visits&service_id=${ctx.a.otherServiceId}`)).toBe(0);
    // The counter served three of the four (the fourth still waits).
    expect(await csv(`kind=visits&counter_id=${counterId}`)).toBe(3);
    // Another organization's service or counter: 404, as on the screen.
    const foreign = await q.call(
      'GET',
      `/organization/insight/export.csv?kind=visits&${range}&service_id=${ctx.b.serviceId}`,
      ctx.adminA.headers,
    );
    expect(foreign.statusCode).toBe(404);
  });

  it('exports visits and bookings as RFC 4180 CSV in the branch time zone, formulas defused', async () => {
    const res = await q.call(
      'GET',
      `/organization/insight/export.csv?kind=visits&${range}`,
      ctx.adminA.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="qless-visits-${YESTERDAY}-${TODAY}.csv"`,
    );
    const raw = res.rawPayload.toString('utf8');
    expect(raw.startsWith('\uFEFF')).toBe(true);
    expect(raw.endsWith('\r\n')).toBe(true);
    expect(raw.replaceAll('\r\n', '')).not.toMatch(/\n/);
    const [header, ...rows] = parseCsv(raw.slice(1));
    expect(header).toContain('arrived_at (Africa/Douala)');
    expect(rows).toHaveLength(4);
    const col = (name: string) => (header ?? []).indexOf(name);
    const names = rows.map((r) => r[col('customer_name')]);
    expect(names).toEqual([
      'Ndzi Paul',
      `'=HYPERLINK("http://x")`,
      'Ngo, "Mama" Ada',
      'Ébodé Jean',
    ]);
    // 08:30 UTC is 09:30 in Douala.
    expect(rows[0]?.[col('arrived_at (Africa/Douala)')]).toBe(`${TODAY} 09:30:00`);
    expect(rows[0]?.[col('visit_date')]).toBe(TODAY);
    expect(rows.map((r) => r[col('state')]).sort()).toEqual(['done', 'done', 'no_show', 'waiting']);

    const bookings = await q.call(
      'GET',
      `/organization/insight/export.csv?kind=bookings&from=2026-03-01&to=${TODAY}`,
      ctx.adminA.headers,
    );
    expect(bookings.statusCode).toBe(200);
    const [bHeader, ...bRows] = parseCsv(bookings.rawPayload.toString('utf8').slice(1));
    expect(bHeader).toContain('confirmed_at (Africa/Douala)');
    expect(bRows.map((r) => r[bHeader?.indexOf('status') ?? -1]).sort()).toEqual([
      'cancelled',
      'checked_in',
      'no_show',
      'no_show',
    ]);
  });

  it('another branch time zone: the header and the times follow the organization', async () => {
    await s.db
      .updateTable('organizations')
      .set({ time_zone: 'Asia/Kathmandu' })
      .where('id', '=', ctx.b.orgId)
      .execute();
    s.clock.set(PINNED_NOW); // 14:15 in Kathmandu (+05:45), the same day
    await q.walkIn(ctx.staffB.headers, ctx.b.serviceId, 'Tamang');
    const res = await q.call(
      'GET',
      `/organization/insight/export.csv?kind=visits&${range}&organization_id=${ctx.b.orgId}`,
      ctx.operator.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    const [header, row] = parseCsv(res.rawPayload.toString('utf8').slice(1));
    const i = header?.indexOf('arrived_at (Asia/Kathmandu)') ?? -1;
    expect(i).toBeGreaterThan(-1);
    expect(row?.[i]).toBe(`${TODAY} 14:15:00`);
    const figures = await q.call(
      'GET',
      url(`${range}&organization_id=${ctx.b.orgId}`),
      ctx.operator.headers,
    );
    expect(figures.json<InsightResponse>().heat_map).toEqual([
      { weekday: 3, hour: 14, arrivals: 1 },
    ]);
  });

  it('several branches (as a group will see them): per branch, and totals that add up', async () => {
    const organizationIds = [ctx.a.orgId, ctx.b.orgId];
    const branches = await findBranches(s.db, organizationIds);
    const options = await insightOptions(s.db, organizationIds);
    const both = await insight(
      s.db,
      { organizationIds, from: YESTERDAY, to: TODAY, serviceId: null, counterId: null },
      branches,
      options,
      2,
    );
    const a = both.by_branch.find((b) => b.organization_id === ctx.a.orgId);
    const b = both.by_branch.find((x) => x.organization_id === ctx.b.orgId);
    expect(a).toMatchObject({ visits: 4, served: 2, no_show_visits: 1, no_show_bookings: 1 });
    expect(a?.median_wait_minutes).toBe(median(waits));
    expect(b).toMatchObject({ visits: 1, served: 0, median_wait_minutes: null });
    expect(both.totals).toMatchObject({ visits: 5, served: 2, no_show_bookings: 1 });
    // A's arrivals at 09:3x Douala, B's at 14:15 Kathmandu: each in its own zone.
    expect(both.heat_map).toEqual([
      { weekday: 3, hour: 9, arrivals: 4 },
      { weekday: 3, hour: 14, arrivals: 1 },
    ]);
    expect(both.daily.map((d) => d.visits)).toEqual([0, 5]);
  });

  it('refuses bad ranges and unknown filters with stable codes', async () => {
    const cases: [string, number, string][] = [
      [`from=${TODAY}&to=${YESTERDAY}`, 400, 'INVALID_DATE_RANGE'],
      ['from=2025-01-01&to=2026-01-02', 400, 'DATE_RANGE_TOO_LONG'],
      ['from=2026-02-30&to=2026-03-04', 400, 'INVALID_DATE'],
      ['from=yesterday&to=2026-03-04', 400, 'INVALID_DATE'],
      ['to=2026-03-04', 400, 'INVALID_DATE'],
      [`${range}&service_id=nope`, 400, 'INVALID_ID'],
      [`${range}&service_id=${ctx.b.serviceId}`, 404, 'SERVICE_NOT_FOUND'],
      [`${range}&counter_id=00000000-0000-4000-8000-000000000000`, 404, 'COUNTER_NOT_FOUND'],
    ];
    for (const [query, status, code] of cases) {
      const res = await q.call('GET', url(query), ctx.adminA.headers);
      expect([query, res.statusCode, res.json().code]).toEqual([query, status, code]);
    }
    // A full leap year is allowed.
    expect(
      (await q.call('GET', url('from=2024-01-01&to=2024-12-31'), ctx.adminA.headers)).statusCode,
    ).toBe(200);
    const kind = await q.call(
      'GET',
      `/organization/insight/export.csv?kind=payments&${range}`,
      ctx.adminA.headers,
    );
    expect([kind.statusCode, kind.json().code]).toEqual([400, 'INVALID_QUERY']);
    const long = await q.call(
      'GET',
      '/organization/insight/export.csv?kind=visits&from=2024-01-01&to=2026-01-01',
      ctx.adminA.headers,
    );
    expect([long.statusCode, long.json().code]).toEqual([400, 'DATE_RANGE_TOO_LONG']);
    // An operator must name the organization.
    expect((await q.call('GET', url(range), ctx.operator.headers)).json().code).toBe(
      'ORGANIZATION_NOT_FOUND',
    );
  });

  it('staff, another organization and nobody are refused', async () => {
    for (const path of [url(range), `/organization/insight/export.csv?kind=visits&${range}`]) {
      const staff = await q.call('GET', path, ctx.staffA.headers);
      expect([staff.statusCode, staff.json().code]).toEqual([403, 'FORBIDDEN']);
      expect((await q.call('GET', path, null)).statusCode).toBe(401);
      // A's admin naming B's organization.
      const other = await q.call(
        'GET',
        `${path}&organization_id=${ctx.b.orgId}`,
        ctx.adminA.headers,
      );
      expect([other.statusCode, other.json().code]).toEqual([403, 'FORBIDDEN']);
    }
  });
});
