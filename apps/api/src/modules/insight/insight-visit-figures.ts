/**
 * Insight's visit figures in SQL: the scope's filters, waits and counts per level, service
 * times and the heat map (the choices are insight.repository.ts's header).
 */
import type { InsightResponse } from '@qless/contract';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/schema.js';
import type { InsightScope } from './insight.repository.js';

export const ids = (list: string[]) => sql.join(list.map((id) => sql`${id}::uuid`));

/** The visits of the scope (alias v); the counter filter keeps the visits it called. */
export function visitFilter(s: InsightScope): RawBuilder<unknown> {
  return sql`v.organization_id in (${ids(s.organizationIds)})
    and v.visit_date between ${s.from}::date and ${s.to}::date
    ${s.serviceId ? sql`and v.service_id = ${s.serviceId}::uuid` : sql``}
    ${s.counterId ? sql`and v.counter_id = ${s.counterId}::uuid` : sql``}`;
}

export function bookingFilter(s: InsightScope): RawBuilder<unknown> {
  return sql`b.organization_id in (${ids(s.organizationIds)})
    and b.booking_date between ${s.from}::date and ${s.to}::date
    ${s.serviceId ? sql`and b.service_id = ${s.serviceId}::uuid` : sql``}`;
}

// date_part is float8 (extract is numeric since PostgreSQL 14, much slower per row).
export const WAIT = sql`date_part('epoch', v.called_at - v.queued_at) / 60`;

/** A percentile of minutes, one decimal, as float8 (numeric would reach JS as a string). */
export const pct = (p: number, expr: RawBuilder<unknown>, where: RawBuilder<unknown>) =>
  sql`round((percentile_cont(${sql.lit(p)}) within group (order by ${expr})
      filter (where ${where}))::numeric, 1)::float8`;

export const CALLED = sql`v.called_at is not null`;
export const DONE = sql`v.state = 'done' and v.called_at is not null and v.ended_at is not null`;
export const VISIT = sql`v.state <> 'transferred'`;

/** Durations in tenths of a minute (epoch seconds / 6): the histograms' buckets. */
const W = sql`round(date_part('epoch', v.called_at - v.queued_at) / 6)::int`;
const D = sql`round(date_part('epoch', v.ended_at - v.called_at) / 6)::int`;

export type Level = 'all' | 'service' | 'organization' | 'counter';

export interface CountRow {
  level: Level;
  key: string | null;
  visits: number;
  booked: number;
  walk_in: number;
  served: number;
  no_show_visits: number;
  left: number;
}

export interface PercentileRow {
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
export async function waitsAndCounts(db: Db, s: InsightScope) {
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
export async function serviceTimes(db: Db, s: InsightScope) {
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
export async function heatMap(db: Db, s: InsightScope): Promise<InsightResponse['heat_map']> {
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
