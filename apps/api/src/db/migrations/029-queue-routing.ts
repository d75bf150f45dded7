import { type Kysely, sql } from 'kysely';

/**
 * Counters that route and calls out of order (decision 139):
 * - counter_services.helps: the counter helps this service's line once its own is empty
 *   (false: a primary service, as every link was before).
 * - visits.for_counter_id: a transfer to a named counter; only that counter calls the visit
 *   while it is open or paused.
 * - visits.call_reason and visit_events.reason: a call out of order and its reason from the
 *   short list (returning, urgent, missed_call, manager); null for every other call. The
 *   event keeps who (by_user), when and at which counter; an Undo of the call keeps the record.
 */
const REASONS = `('returning', 'urgent', 'missed_call', 'manager')`;
const statements = [
  `alter table counter_services add column helps boolean not null default false`,
  `alter table visits add column for_counter_id uuid references counters(id)`,
  `alter table visits add column call_reason text check (call_reason in ${REASONS})`,
  `alter table visit_events add column reason text check (reason in ${REASONS})`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
