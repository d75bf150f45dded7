/**
 * Insight per clerk (decision 139): who served how many and how long, and who called out of
 * turn, from the visit events (each keeps its clerk, `by_user`).
 */
import {
  formatVisitNumber,
  INSIGHT_OUT_OF_ORDER_ROWS,
  type InsightResponse,
} from '@qless/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/schema.js';
import type { InsightScope } from './insight.repository.js';
import { visitFilter } from './insight-visit-figures.js';

/**
 * The calls out of turn of the scope (alias e for the event, v for its visit): a counter filter
 * keeps the calls made at that counter, wherever the visit ended.
 */
function jumpFilter(s: InsightScope) {
  return sql`${visitFilter({ ...s, counterId: null })} and e.kind = 'called' and e.reason is not null
    ${s.counterId ? sql`and e.counter_id = ${s.counterId}::uuid` : sql``}`;
}

/** Minutes a visit took at the counter: called → done. */
const SERVICE = sql`date_part('epoch', v.ended_at - v.called_at) / 60`;

/**
 * Per clerk: visits finished (each visit once, by the clerk of its last Done — an Undo then a
 * Done again counts the visit once), the median of their service times, and their calls out
 * of turn (every one made, Undo or not).
 */
export async function clerkFigures(db: Db, s: InsightScope): Promise<InsightResponse['clerks']> {
  const { rows } = await sql<InsightResponse['clerks'][number]>`
    with done as (
      select distinct on (e.visit_id) e.visit_id, e.by_user, v.organization_id, ${SERVICE} as minutes
      from visit_events e
      join visits v on v.id = e.visit_id
      where ${visitFilter(s)} and e.kind = 'done' and v.state = 'done'
        and v.called_at is not null and v.ended_at is not null and e.by_user is not null
      order by e.visit_id, e.id desc
    ), served as (
      select by_user, organization_id, count(*)::int as served,
        round((percentile_cont(0.5) within group (order by minutes))::numeric, 1)::float8 as median
      from done group by by_user, organization_id
    ), jumps as (
      select e.by_user, v.organization_id, count(*)::int as calls
      from visit_events e
      join visits v on v.id = e.visit_id
      where ${jumpFilter(s)} and e.by_user is not null
      group by e.by_user, v.organization_id
    )
    select coalesce(sv.by_user, j.by_user) as user_id,
      coalesce(sv.organization_id, j.organization_id) as organization_id,
      coalesce(u.name, '') as name,
      coalesce(sv.served, 0) as served,
      sv.median as median_service_minutes,
      coalesce(j.calls, 0) as out_of_order_calls
    from served sv
    full join jumps j on j.by_user = sv.by_user and j.organization_id = sv.organization_id
    left join users u on u.id = coalesce(sv.by_user, j.by_user)
    order by served desc, out_of_order_calls desc, name`.execute(db);
  return rows;
}

/** The calls out of turn of the scope, newest first, with their clerk, counter and reason. */
export async function outOfOrderCalls(
  db: Db,
  s: InsightScope,
): Promise<InsightResponse['out_of_order_calls']> {
  const { rows } = await sql<
    Omit<InsightResponse['out_of_order_calls'][number], 'at' | 'date' | 'number'> & {
      at: Date;
      date: string | Date;
      letter: string;
      number: number;
    }
  >`
    select to_char(v.visit_date, 'YYYY-MM-DD') as date, e.at, v.organization_id,
      e.by_user as user_id, u.name as clerk_name, c.name as counter_name,
      v.letter, v.number, e.reason,
      exists (
        select 1 from visit_events x
        where x.visit_id = e.visit_id and x.kind = 'undone_called' and x.id > e.id
          and not exists (
            select 1 from visit_events y
            where y.visit_id = e.visit_id and y.kind = 'called' and y.id > e.id and y.id < x.id
          )
      ) as undone
    from visit_events e
    join visits v on v.id = e.visit_id
    left join users u on u.id = e.by_user
    left join counters c on c.id = e.counter_id
    where ${jumpFilter(s)}
    order by e.id desc
    limit ${INSIGHT_OUT_OF_ORDER_ROWS}`.execute(db);
  return rows.map((r) => ({
    date: String(r.date),
    at: new Date(r.at).toISOString(),
    organization_id: r.organization_id,
    user_id: r.user_id,
    clerk_name: r.clerk_name,
    counter_name: r.counter_name,
    number: formatVisitNumber(r.letter, r.number),
    reason: r.reason,
    undone: r.undone,
  }));
}
