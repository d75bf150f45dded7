import { type Kysely, sql } from 'kysely';

/**
 * Insight reads every visit of a branch over a range of days, and the bookings of
 * those days that ended as no-shows or cancelled.
 * - visits by (organization_id, visit_date), carrying the columns the figures read, so a
 *   range is one index-only scan once the table is vacuumed (autovacuum does it) and one
 *   index range scan with heap reads before;
 * - bookings' no-shows and cancellations by (organization_id, booking_date): a small partial
 *   index (most bookings end checked in).
 * One statement per entry (PGlite's extended protocol takes one at a time).
 */
const statements = [
  `create index visits_insight_ix on visits (organization_id, visit_date)
     include (state, source, service_id, counter_id, arrived_at, queued_at, called_at, ended_at)`,
  `create index bookings_insight_ix on bookings (organization_id, booking_date)
     include (service_id, status, cancelled_by) where status in ('no_show', 'cancelled')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
