/**
 * Insight's SQL: every figure is computed by PostgreSQL over visits and bookings of
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
import { sql } from 'kysely';
import { placeName } from '../../core/organizations.repository.js';
import type { Db } from '../../db/schema.js';
import { feedbackSummary } from '../feedback/feedback.module.js';
import { clerkFigures, outOfOrderCalls } from './insight-clerks.js';
import {
  bookingFilter,
  CALLED,
  type CountRow,
  heatMap,
  ids,
  type Level,
  pct,
  serviceTimes,
  VISIT,
  visitFilter,
  WAIT,
  waitsAndCounts,
} from './insight-visit-figures.js';

export interface InsightScope {
  organizationIds: string[];
  from: string;
  to: string;
  serviceId: string | null;
  counterId: string | null;
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
): Promise<Omit<InsightResponse, 'messages'>> {
  const withBookings = s.counterId === null;
  const [waits, times, heat, bookingRows, dailyRows, words, clerks, jumps] = await Promise.all([
    waitsAndCounts(db, s),
    serviceTimes(db, s),
    heatMap(db, s),
    withBookings ? bookingAggregates(db, s) : Promise.resolve([]),
    daily(db, s),
    feedbackSummary(db, s.organizationIds, s.from, s.to, {
      serviceId: s.serviceId ?? undefined,
      counterId: s.counterId ?? undefined,
    }),
    clerkFigures(db, s),
    outOfOrderCalls(db, s),
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
    clerks,
    out_of_order_calls: jumps,
    services,
    by_branch: byBranch,
    feedback: words,
  };
}
