/**
 * Insight's SQL (issue 20): every figure is computed by PostgreSQL over visits and bookings of
 * the branches in scope; JavaScript only renames columns and merges a handful of aggregated
 * rows. Every function takes `organizationIds` (one branch today; a group's admin later).
 *
 * Choices (see the report of issue 20 and the contract's comments):
 * - a day is the branch's own day: visits.visit_date, bookings.booking_date;
 * - a visit is a row not in state 'transferred' (a transfer ends one row and opens another
 *   for the same person, so the person is counted once, in the line that finished);
 * - wait = queued_at → called_at over every called row, transferred ones included (each line
 *   waited in counts once). queued_at is the arrival, or the moment of the transfer into the
 *   second line; called_at is the last call (a recall moves it), so a recalled visitor's wait
 *   includes the recalls;
 * - service time = called_at → ended_at of visits done (the counter's time with the visitor,
 *   walking up included);
 * - the heat map's hours are arrived_at in each branch's own time zone.
 */
import type { InsightCounts, InsightDuration, InsightResponse } from '@qless/contract';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/schema.js';

export interface InsightScope {
  organizationIds: string[];
  from: string;
  to: string;
  serviceId: string | null;
  counterId: string | null;
}

const ids = (list: string[]) => sql.join(list.map((id) => sql`${id}::uuid`));

/** The visits of the scope (alias v); the counter filter keeps the visits it called. */
function visitFilter(s: InsightScope): RawBuilder<unknown> {
  return sql`v.organization_id in (${ids(s.organizationIds)})
    and v.visit_date between ${s.from}::date and ${s.to}::date
    ${s.serviceId ? sql`and v.service_id = ${s.serviceId}::uuid` : sql``}
    ${s.counterId ? sql`and v.counter_id = ${s.counterId}::uuid` : sql``}`;
}

function bookingFilter(s: InsightScope): RawBuilder<unknown> {
  return sql`b.organization_id in (${ids(s.organizationIds)})
    and b.booking_date between ${s.from}::date and ${s.to}::date
    ${s.serviceId ? sql`and b.service_id = ${s.serviceId}::uuid` : sql``}`;
}

const WAIT = sql`extract(epoch from (v.called_at - v.queued_at)) / 60.0`;
const SERVICE = sql`extract(epoch from (v.ended_at - v.called_at)) / 60.0`;

/** A percentile of minutes, one decimal, as float8 (numeric would reach JS as a string). */
const pct = (p: number, expr: RawBuilder<unknown>, where: RawBuilder<unknown>) =>
  sql`round((percentile_cont(${sql.lit(p)}) within group (order by ${expr})
      filter (where ${where}))::numeric, 1)::float8`;

const CALLED = sql`v.called_at is not null`;
const DONE = sql`v.state = 'done' and v.called_at is not null and v.ended_at is not null`;
const VISIT = sql`v.state <> 'transferred'`;

interface VisitAgg {
  /** 'all' | 'organization' | 'service' */
  level: string;
  key: string | null;
  visits: number;
  booked: number;
  walk_in: number;
  served: number;
  no_show_visits: number;
  left: number;
  wait_count: number;
  wait_median: number | null;
  wait_p90: number | null;
  service_count: number;
  service_median: number | null;
  service_p90: number | null;
}

/** Totals, per branch and per service in one scan (grouping sets). */
async function visitAggregates(db: Db, s: InsightScope): Promise<VisitAgg[]> {
  const { rows } = await sql<VisitAgg>`
    select
      case when grouping(v.organization_id) = 0 then 'organization'
           when grouping(v.service_id) = 0 then 'service' else 'all' end as level,
      coalesce(v.organization_id, v.service_id)::text as key,
      (count(*) filter (where ${VISIT}))::int as visits,
      (count(*) filter (where ${VISIT} and v.source = 'booking'))::int as booked,
      (count(*) filter (where ${VISIT} and v.source <> 'booking'))::int as walk_in,
      (count(*) filter (where v.state = 'done'))::int as served,
      (count(*) filter (where v.state = 'no_show'))::int as no_show_visits,
      (count(*) filter (where v.state = 'left'))::int as left,
      (count(*) filter (where ${CALLED}))::int as wait_count,
      ${pct(0.5, WAIT, CALLED)} as wait_median,
      ${pct(0.9, WAIT, CALLED)} as wait_p90,
      (count(*) filter (where ${DONE}))::int as service_count,
      ${pct(0.5, SERVICE, DONE)} as service_median,
      ${pct(0.9, SERVICE, DONE)} as service_p90
    from visits v
    where ${visitFilter(s)}
    group by grouping sets ((), (v.organization_id), (v.service_id))`.execute(db);
  return rows;
}

interface BookingAgg {
  level: string;
  key: string | null;
  no_show_bookings: number;
  cancelled_bookings: number;
}

async function bookingAggregates(db: Db, s: InsightScope): Promise<BookingAgg[]> {
  const { rows } = await sql<BookingAgg>`
    select
      case when grouping(b.organization_id) = 0 then 'organization'
           when grouping(b.service_id) = 0 then 'service' else 'all' end as level,
      coalesce(b.organization_id, b.service_id)::text as key,
      (count(*) filter (where b.status = 'no_show'))::int as no_show_bookings,
      (count(*) filter (where b.status = 'cancelled'))::int as cancelled_bookings
    from bookings b
    where ${bookingFilter(s)} and b.status in ('no_show', 'cancelled')
    group by grouping sets ((), (b.organization_id), (b.service_id))`.execute(db);
  return rows;
}

function counts(v: VisitAgg | undefined, b: BookingAgg | undefined, withBookings: boolean) {
  const visits = v?.visits ?? 0;
  const noShowVisits = v?.no_show_visits ?? 0;
  const noShowBookings = withBookings ? (b?.no_show_bookings ?? 0) : null;
  const expected = visits + (noShowBookings ?? 0);
  const result: InsightCounts = {
    visits,
    booked: v?.booked ?? 0,
    walk_in: v?.walk_in ?? 0,
    served: v?.served ?? 0,
    no_show_visits: noShowVisits,
    left: v?.left ?? 0,
    no_show_bookings: noShowBookings,
    cancelled_bookings: withBookings ? (b?.cancelled_bookings ?? 0) : null,
    no_show_rate:
      expected === 0
        ? null
        : Math.round(((noShowVisits + (noShowBookings ?? 0)) / expected) * 1000) / 1000,
  };
  return result;
}

const duration = (count: number, median: number | null, p90: number | null): InsightDuration => ({
  count,
  median,
  p90,
});

interface DailyRow {
  date: string;
  visits: number;
  served: number;
  no_shows: number;
  median_wait_minutes: number | null;
}

/** Every day of the range (generate_series), zeros included. */
async function daily(db: Db, s: InsightScope): Promise<DailyRow[]> {
  const withBookings = s.counterId === null;
  const { rows } = await sql<DailyRow>`
    with days as (
      select d::date as day
      from generate_series(${s.from}::date, ${s.to}::date, interval '1 day') d
    ), v as (
      select v.visit_date as day,
        (count(*) filter (where ${VISIT}))::int as visits,
        (count(*) filter (where v.state = 'done'))::int as served,
        (count(*) filter (where v.state = 'no_show'))::int as no_shows,
        ${pct(0.5, WAIT, CALLED)} as median_wait
      from visits v
      where ${visitFilter(s)}
      group by v.visit_date
    ), b as (
      select b.booking_date as day, count(*)::int as no_shows
      from bookings b
      where ${bookingFilter(s)} and b.status = 'no_show' and ${sql.lit(withBookings)}
      group by b.booking_date
    )
    select to_char(days.day, 'YYYY-MM-DD') as date,
      coalesce(v.visits, 0) as visits,
      coalesce(v.served, 0) as served,
      (coalesce(v.no_shows, 0) + coalesce(b.no_shows, 0))::int as no_shows,
      v.median_wait as median_wait_minutes
    from days
    left join v on v.day = days.day
    left join b on b.day = days.day
    order by days.day`.execute(db);
  return rows;
}

async function heatMap(db: Db, s: InsightScope): Promise<InsightResponse['heat_map']> {
  const { rows } = await sql<InsightResponse['heat_map'][number]>`
    select extract(isodow from v.arrived_at at time zone o.time_zone)::int as weekday,
      extract(hour from v.arrived_at at time zone o.time_zone)::int as hour,
      count(*)::int as arrivals
    from visits v
    join organizations o on o.id = v.organization_id
    where ${visitFilter(s)} and ${VISIT}
    group by 1, 2
    order by 1, 2`.execute(db);
  return rows;
}

async function counterThroughput(db: Db, s: InsightScope): Promise<InsightResponse['counters']> {
  const { rows } = await sql<InsightResponse['counters'][number]>`
    select c.id::text as counter_id, c.name,
      agg.served, agg.median_service_minutes
    from (
      select v.counter_id,
        count(*)::int as served,
        ${pct(0.5, SERVICE, DONE)} as median_service_minutes
      from visits v
      where ${visitFilter(s)} and v.state = 'done' and v.counter_id is not null
      group by v.counter_id
    ) agg
    join counters c on c.id = agg.counter_id
    order by agg.served desc, c.name`.execute(db);
  return rows;
}

interface Named {
  id: string;
  name: string;
  name_fr: string | null;
  time_zone: string;
  retired: boolean;
}

export async function findBranches(db: Db, organizationIds: string[]) {
  const { rows } = await sql<Pick<Named, 'id' | 'name' | 'time_zone'>>`
    select o.id::text as id, o.name, o.time_zone from organizations o
    where o.id in (${ids(organizationIds)}) order by o.name, o.id`.execute(db);
  return rows;
}

export async function insightOptions(db: Db, organizationIds: string[]) {
  const [services, counters] = await Promise.all([
    sql<Pick<Named, 'id' | 'name' | 'name_fr'>>`
      select s.id::text as id, s.name, s.name_fr from services s
      where s.organization_id in (${ids(organizationIds)}) order by s.name, s.id`.execute(db),
    sql<Pick<Named, 'id' | 'name' | 'retired'>>`
      select c.id::text as id, c.name, (c.retired_at is not null) as retired from counters c
      where c.organization_id in (${ids(organizationIds)})
      order by (c.retired_at is not null), c.name, c.id`.execute(db),
  ]);
  return { services: services.rows, counters: counters.rows };
}

/** Feedback lives in visit_feedback (migration 017, another module): read only if it exists. */
async function feedback(db: Db, s: InsightScope): Promise<InsightResponse['feedback']> {
  const { rows: exists } = await sql<{ present: boolean }>`
    select to_regclass('visit_feedback') is not null as present`.execute(db);
  if (!exists[0]?.present) return null;
  // visit_feedback carries the visit's organization, service and day (its index); the join
  // to visits is for the counter that served it.
  const where = sql`f.organization_id in (${ids(s.organizationIds)})
    and f.visit_date between ${s.from}::date and ${s.to}::date
    ${s.serviceId ? sql`and f.service_id = ${s.serviceId}::uuid` : sql``}
    ${s.counterId ? sql`and v.counter_id = ${s.counterId}::uuid` : sql``}`;
  const [summary, comments] = await Promise.all([
    sql<{ count: number; average: number | null }>`
      select count(*)::int as count, round(avg(f.rating)::numeric, 2)::float8 as average
      from visit_feedback f join visits v on v.id = f.visit_id
      where ${where}`.execute(db),
    sql<{ rating: number; comment: string; created_at: string }>`
      select f.rating::int as rating, f.comment,
        to_char(f.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at
      from visit_feedback f join visits v on v.id = f.visit_id
      where ${where} and f.comment is not null and btrim(f.comment) <> ''
      order by f.created_at desc, f.visit_id
      limit 20`.execute(db),
  ]);
  return {
    count: summary.rows[0]?.count ?? 0,
    average: summary.rows[0]?.average ?? null,
    comments: comments.rows,
  };
}

/** The whole answer of GET /organization/insight for a scope already checked. */
export async function insight(
  db: Db,
  s: InsightScope,
  branches: InsightResponse['branches'],
  options: InsightResponse['options'],
  days: number,
): Promise<InsightResponse> {
  const withBookings = s.counterId === null;
  const [visitRows, bookingRows, dailyRows, heat, counters, words] = await Promise.all([
    visitAggregates(db, s),
    withBookings ? bookingAggregates(db, s) : Promise.resolve([]),
    daily(db, s),
    heatMap(db, s),
    counterThroughput(db, s),
    feedback(db, s),
  ]);
  const visitOf = (level: string, key: string | null) =>
    visitRows.find((r) => r.level === level && r.key === key);
  const bookingOf = (level: string, key: string | null) =>
    bookingRows.find((r) => r.level === level && r.key === key);
  const all = visitOf('all', null);

  const serviceIds = new Set(
    [...visitRows, ...bookingRows].filter((r) => r.level === 'service').map((r) => r.key),
  );
  const services = options.services
    .filter((svc) => serviceIds.has(svc.id))
    .map((svc) => {
      const v = visitOf('service', svc.id);
      return {
        service_id: svc.id,
        name: svc.name,
        name_fr: svc.name_fr,
        ...counts(v, bookingOf('service', svc.id), withBookings),
        median_wait_minutes: v?.wait_median ?? null,
        median_service_minutes: v?.service_median ?? null,
      };
    })
    .sort((a, b) => b.visits - a.visits || a.name.localeCompare(b.name));

  const byBranch = branches.map((branch) => {
    const v = visitOf('organization', branch.id);
    return {
      organization_id: branch.id,
      name: branch.name,
      ...counts(v, bookingOf('organization', branch.id), withBookings),
      median_wait_minutes: v?.wait_median ?? null,
      median_service_minutes: v?.service_median ?? null,
    };
  });

  return {
    range: { from: s.from, to: s.to, days },
    filters: { service_id: s.serviceId, counter_id: s.counterId },
    branches,
    options,
    totals: {
      ...counts(all, bookingOf('all', null), withBookings),
      wait_minutes: duration(all?.wait_count ?? 0, all?.wait_median ?? null, all?.wait_p90 ?? null),
      service_minutes: duration(
        all?.service_count ?? 0,
        all?.service_median ?? null,
        all?.service_p90 ?? null,
      ),
    },
    heat_map: heat,
    daily: dailyRows,
    counters,
    services,
    by_branch: byBranch,
    feedback: words,
  };
}
