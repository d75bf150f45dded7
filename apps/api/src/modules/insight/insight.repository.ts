/**
 * Insight's SQL (issue 20): every figure is computed by PostgreSQL over visits and bookings of
 * the branches in scope; JavaScript only renames columns and merges a handful of aggregated
 * rows. Every function takes `organizationIds` (one branch today; a group's admin later).
 *
 * Choices (decision 025 and the contract's comments):
 * - a day is the branch's own day: visits.visit_date, bookings.booking_date;
 * - a visit is a row not in state 'transferred' (a transfer ends one row and opens another
 *   for the same person, so the person is counted once, in the line that finished);
 * - wait = queued_at → called_at over every called row, transferred ones included (each line
 *   waited in counts once). queued_at is the arrival, or the moment of the transfer into the
 *   second line; called_at is the last call (a recall moves it), so a recalled visitor's wait
 *   includes the recalls;
 * - service time = called_at → ended_at of visits done (the counter's time with the visitor,
 *   walking up included);
 * - the heat map's hours are arrived_at in each branch's own time zone;
 * - medians and 90th percentiles are percentile_cont's linear interpolation over the
 *   durations rounded to a tenth of a minute (6 s), read off a histogram per group
 *   (`percentilesOf`), never by sorting every visit once per group; a day's median (a few
 *   hundred visits, read in index order) is percentile_cont itself.
 */
import type { InsightCounts, InsightDuration, InsightResponse } from '@qless/contract';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/schema.js';
import { feedbackSummary } from '../feedback/feedback.repository.js';
import { placeName } from '../organizations/organizations.repository.js';

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

// date_part is float8 (extract is numeric since PostgreSQL 14, much slower per row).
const WAIT = sql`date_part('epoch', v.called_at - v.queued_at) / 60`;

/** A percentile of minutes, one decimal, as float8 (numeric would reach JS as a string). */
const pct = (p: number, expr: RawBuilder<unknown>, where: RawBuilder<unknown>) =>
  sql`round((percentile_cont(${sql.lit(p)}) within group (order by ${expr})
      filter (where ${where}))::numeric, 1)::float8`;

const CALLED = sql`v.called_at is not null`;
const DONE = sql`v.state = 'done' and v.called_at is not null and v.ended_at is not null`;
const VISIT = sql`v.state <> 'transferred'`;

/** Durations in tenths of a minute (epoch seconds / 6): the histograms' buckets. */
const W = sql`round(date_part('epoch', v.called_at - v.queued_at) / 6)::int`;
const D = sql`round(date_part('epoch', v.ended_at - v.called_at) / 6)::int`;

type Level = 'all' | 'service' | 'organization' | 'counter';

interface CountRow {
  level: Level;
  key: string | null;
  visits: number;
  booked: number;
  walk_in: number;
  served: number;
  no_show_visits: number;
  left: number;
}

interface PercentileRow {
  level: Level;
  key: string | null;
  p: number;
  total: number;
  minutes: number;
}

/**
 * Median and 90th percentile per (level, key) of the histogram `levels` (x: tenths of a
 * minute, n: visits): percentile_cont's interpolation between the values at 0-based
 * positions floor(p(N-1)) and ceil(p(N-1)), the value at position k being the first bucket
 * whose running count exceeds k. A few thousand rows, whatever the range.
 */
const percentilesOf = sql`
  running as (
    select level, key, x,
      sum(n) over (partition by level, key order by x) as upto,
      sum(n) over (partition by level, key) as total
    from levels where x is not null and (level <> 'counter' or key is not null)
  ), bounds as (
    select level, key, p, total,
      min(x) filter (where upto > floor(p * (total - 1))) as lo,
      min(x) filter (where upto > ceil(p * (total - 1))) as hi,
      p * (total - 1) - floor(p * (total - 1)) as frac
    from running cross join (values (0.5::float8), (0.9::float8)) ps(p)
    group by level, key, p, total
  ), percentiles as (
    select level, key, p, total::int as total,
      round(((lo + frac * (hi - lo)) / 10.0)::numeric, 1)::float8 as minutes
    from bounds
  )`;

/**
 * Counts and waits: ONE scan of the range's visits, hash-aggregated per branch, service and
 * wait (in tenths of a minute: a few hundred buckets); the totals, services and branches are
 * then sums over that small histogram, and the percentiles are read off it (percentilesOf),
 * instead of sorting every visit once per group.
 */
async function waitsAndCounts(db: Db, s: InsightScope) {
  const { rows } = await sql<{ counts: CountRow[]; percentiles: PercentileRow[] }>`
    with h as (
      -- By the uuids themselves: grouping by their text made PostgreSQL sort instead of hash.
      select v.organization_id as org, v.service_id as service, ${W} as x,
        count(*) filter (where ${VISIT}) as visits,
        count(*) filter (where ${VISIT} and v.source = 'booking') as booked,
        count(*) filter (where ${VISIT} and v.source <> 'booking') as walk_in,
        count(*) filter (where v.state = 'done') as served,
        count(*) filter (where v.state = 'no_show') as no_show_visits,
        count(*) filter (where v.state = 'left') as gone,
        count(*) as n
      from visits v
      where ${visitFilter(s)}
      group by 1, 2, 3
    ), levels as (
      select case when grouping(service) = 0 then 'service'
                  when grouping(org) = 0 then 'organization' else 'all' end as level,
        coalesce(service, org)::text as key, x,
        sum(visits) as visits, sum(booked) as booked, sum(walk_in) as walk_in,
        sum(served) as served, sum(no_show_visits) as no_show_visits, sum(gone) as gone,
        sum(n) as n
      from h
      group by grouping sets ((x), (service, x), (org, x))
    ), counted as (
      select level, key, sum(visits)::int as visits, sum(booked)::int as booked,
        sum(walk_in)::int as walk_in, sum(served)::int as served,
        sum(no_show_visits)::int as no_show_visits, sum(gone)::int as "left"
      from levels
      group by level, key
    ), ${percentilesOf}
    select
      (select coalesce(json_agg(counted), '[]') from counted) as counts,
      (select coalesce(json_agg(percentiles), '[]') from percentiles) as percentiles`.execute(db);
  return rows[0] ?? { counts: [], percentiles: [] };
}

/**
 * Service times (called → done): one scan of the visits done, hash-aggregated per branch,
 * service, counter and duration; percentiles per level as for the waits, and each counter's
 * throughput (visits done, median) with its name.
 */
async function serviceTimes(db: Db, s: InsightScope) {
  const { rows } = await sql<{
    percentiles: PercentileRow[];
    counters: InsightResponse['counters'];
  }>`
    with h as (
      -- Three keys (a counter belongs to one branch): with four, PostgreSQL expected as many
      -- groups as visits and sorted them all instead of hashing.
      select h3.service, h3.counter, c.organization_id as org, h3.x, h3.n
      from (
        select v.service_id as service, v.counter_id as counter, ${D} as x, count(*) as n
        from visits v
        where ${visitFilter(s)} and ${DONE}
        group by 1, 2, 3
      ) h3
      left join counters c on c.id = h3.counter
    ), levels as (
      select case when grouping(service) = 0 then 'service'
                  when grouping(counter) = 0 then 'counter'
                  when grouping(org) = 0 then 'organization' else 'all' end as level,
        coalesce(service, counter, org)::text as key, x, sum(n) as n
      from h
      group by grouping sets ((x), (service, x), (counter, x), (org, x))
    ), ${percentilesOf}
    select
      (select coalesce(json_agg(percentiles), '[]') from percentiles where level <> 'counter')
        as percentiles,
      (select coalesce(json_agg(t order by t.served desc, t.name), '[]') from (
        select c.id::text as counter_id, c.organization_id::text as organization_id, c.name,
          p.total as served,
          p.minutes as median_service_minutes
        from percentiles p join counters c on c.id::text = p.key
        where p.level = 'counter' and p.p = 0.5
      ) t) as counters`.execute(db);
  return rows[0] ?? { percentiles: [], counters: [] };
}

/**
 * Arrivals per weekday and hour in each branch's own zone: counted first per branch and
 * quarter hour since the epoch (cheap per row), and only those few thousand quarters turned
 * into local time (every zone in use today is offset from UTC by whole quarter hours, so a
 * quarter never straddles two local hours).
 */
async function heatMap(db: Db, s: InsightScope): Promise<InsightResponse['heat_map']> {
  const { rows } = await sql<InsightResponse['heat_map'][number]>`
    select extract(isodow from local)::int as weekday, extract(hour from local)::int as hour,
      sum(n)::int as arrivals
    from (
      select to_timestamp(q.quarter * 900) at time zone o.time_zone as local, q.n
      from (
        select v.organization_id,
          floor(date_part('epoch', v.arrived_at) / 900)::bigint as quarter, count(*) as n
        from visits v
        where ${visitFilter(s)} and ${VISIT}
        group by 1, 2
      ) q
      join organizations o on o.id = q.organization_id
    ) t
    group by 1, 2
    order by 1, 2`.execute(db);
  return rows;
}

interface BookingAgg {
  level: Level;
  key: string | null;
  no_show_bookings: number;
  cancelled_bookings: number;
}

/** No-shows and cancellations of the range's bookings: in total, per service, per branch. */
async function bookingAggregates(db: Db, s: InsightScope): Promise<BookingAgg[]> {
  const { rows } = await sql<BookingAgg>`
    select
      case when grouping(b.service_id) = 0 then 'service'
           when grouping(b.organization_id) = 0 then 'organization' else 'all' end as level,
      coalesce(b.service_id, b.organization_id)::text as key,
      (count(*) filter (where b.status = 'no_show'))::int as no_show_bookings,
      -- Cancelled by someone (customer or organization): a hold whose payment failed or
      -- was abandoned ends "cancelled" too, with nobody's name on it.
      (count(*) filter (where b.status = 'cancelled' and b.cancelled_by is not null))::int
        as cancelled_bookings
    from bookings b
    where ${bookingFilter(s)} and b.status in ('no_show', 'cancelled')
    group by grouping sets ((), (b.service_id), (b.organization_id))`.execute(db);
  return rows;
}

function counts(v: CountRow | undefined, b: BookingAgg | undefined, withBookings: boolean) {
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

interface Named {
  id: string;
  organization_id: string;
  name: string;
  branch_name: string | null;
  name_fr: string | null;
  time_zone: string;
  retired: boolean;
}

export async function findBranches(db: Db, organizationIds: string[]) {
  const { rows } = await sql<Pick<Named, 'id' | 'name' | 'branch_name' | 'time_zone'>>`
    select o.id::text as id, ${placeName('o')} as name, o.branch_name, o.time_zone
    from organizations o
    where o.id in (${ids(organizationIds)})
    order by o.parent_id is not null, o.branch_name, o.id`.execute(db);
  return rows;
}

export async function insightOptions(db: Db, organizationIds: string[]) {
  const [services, counters] = await Promise.all([
    sql<Pick<Named, 'id' | 'organization_id' | 'name' | 'name_fr'>>`
      select s.id::text as id, s.organization_id::text as organization_id, s.name, s.name_fr
      from services s
      where s.organization_id in (${ids(organizationIds)}) order by s.name, s.id`.execute(db),
    sql<Pick<Named, 'id' | 'organization_id' | 'name' | 'retired'>>`
      select c.id::text as id, c.organization_id::text as organization_id, c.name,
        (c.retired_at is not null) as retired
      from counters c
      where c.organization_id in (${ids(organizationIds)})
      order by (c.retired_at is not null), c.name, c.id`.execute(db),
  ]);
  return { services: services.rows, counters: counters.rows };
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
  const [waits, times, heat, bookingRows, dailyRows, words] = await Promise.all([
    waitsAndCounts(db, s),
    serviceTimes(db, s),
    heatMap(db, s),
    withBookings ? bookingAggregates(db, s) : Promise.resolve([]),
    daily(db, s),
    feedbackSummary(db, s.organizationIds, s.from, s.to, {
      serviceId: s.serviceId ?? undefined,
      counterId: s.counterId ?? undefined,
    }),
  ]);
  const countOf = (level: Level, key: string | null) =>
    waits.counts.find((r) => r.level === level && r.key === key);
  const bookingOf = (level: Level, key: string | null) =>
    bookingRows.find((r) => r.level === level && r.key === key);
  const percentile = (measure: 'wait' | 'service', level: Level, key: string | null, p: number) =>
    (measure === 'wait' ? waits : times).percentiles.find(
      (r) => r.level === level && r.key === key && r.p === p,
    );
  const durationOf = (measure: 'wait' | 'service'): InsightDuration => {
    const median = percentile(measure, 'all', null, 0.5);
    return {
      count: median?.total ?? 0,
      median: median?.minutes ?? null,
      p90: percentile(measure, 'all', null, 0.9)?.minutes ?? null,
    };
  };
  const medians = (l: Level, key: string | null) => ({
    median_wait_minutes: percentile('wait', l, key, 0.5)?.minutes ?? null,
    median_service_minutes: percentile('service', l, key, 0.5)?.minutes ?? null,
  });

  const serviceIds = new Set(
    [...waits.counts, ...bookingRows].filter((r) => r.level === 'service').map((r) => r.key),
  );
  const services = options.services
    .filter((svc) => serviceIds.has(svc.id))
    .map((svc) => ({
      service_id: svc.id,
      organization_id: svc.organization_id,
      name: svc.name,
      name_fr: svc.name_fr,
      ...counts(countOf('service', svc.id), bookingOf('service', svc.id), withBookings),
      ...medians('service', svc.id),
    }))
    .sort((a, b) => b.visits - a.visits || a.name.localeCompare(b.name));

  const byBranch = branches.map((branch) => ({
    organization_id: branch.id,
    name: branch.name,
    ...counts(
      countOf('organization', branch.id),
      bookingOf('organization', branch.id),
      withBookings,
    ),
    ...medians('organization', branch.id),
  }));

  return {
    range: { from: s.from, to: s.to, days },
    filters: { service_id: s.serviceId, counter_id: s.counterId },
    branches,
    options,
    totals: {
      ...counts(countOf('all', null), bookingOf('all', null), withBookings),
      wait_minutes: durationOf('wait'),
      service_minutes: durationOf('service'),
    },
    heat_map: heat,
    daily: dailyRows,
    counters: times.counters,
    services,
    by_branch: byBranch,
    feedback: words,
  };
}
