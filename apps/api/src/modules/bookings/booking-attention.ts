import { ATTENTION_REASONS, zonedNow } from '@qless/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/schema.js';

const OURS = sql.join(ATTENTION_REASONS.map((reason) => sql.lit(reason)));

/**
 * Bookings are never dropped when an organization changes its week: every upcoming
 * (today or later in its time zone) held or confirmed booking that its service, day, date
 * or slot no longer holds gets a reason for the admin to look at, and loses it again when a
 * later change makes it fit. Call it inside the transaction of the change, after the slots
 * were regenerated. Reasons set by anyone else are left alone. Returns how many bookings
 * this call newly flagged.
 */
export async function refreshAttention(db: Db, organizationId: string, now: Date): Promise<number> {
  const org = await db
    .selectFrom('organizations')
    .select('time_zone')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const today = zonedNow(org.time_zone, now).date;
  // First reason wins: the most fundamental one is the one worth telling.
  const { rows } = await sql<{ before: string | null; reason: string | null }>`
    with computed as (
      select b.id, b.attention_reason as before,
        case
          when not s.active then 'service_inactive'
          when c.closed_on is not null then 'closure'
          when (o.open_days & (1 << extract(dow from b.booking_date)::int)) = 0 then 'closed_day'
          when sl.retired_at is not null
            and (sl.start_time < o.start_time or sl.end_time > o.end_time) then 'outside_hours'
          when sl.retired_at is not null then 'slot_changed'
        end as reason
      from bookings b
      join services s on s.id = b.service_id
      join slots sl on sl.id = b.slot_id
      join organizations o on o.id = b.organization_id
      left join organization_closures c
        on c.organization_id = b.organization_id and c.closed_on = b.booking_date
      where b.organization_id = ${organizationId}
        and b.booking_date >= ${today}::date
        and b.status in ('held', 'confirmed')
        and (b.attention_reason is null or b.attention_reason in (${OURS}))
    )
    update bookings b
    set attention_reason = computed.reason, updated_at = ${now}
    from computed
    where b.id = computed.id and b.attention_reason is distinct from computed.reason
    returning computed.before, computed.reason`.execute(db);
  return rows.filter((r) => r.before === null && r.reason !== null).length;
}
