import { type Kysely, sql } from 'kysely';

/**
 * The fair order (decision 138):
 * - organizations.queue_priority_categories: the categories the organization serves first
 *   (elderly, pregnant, disability, emergency, premium); empty: none.
 * - organizations.queue_premium_label: what the organization calls its premium clients.
 * - organizations.queue_ratio_priority / queue_ratio_others: "p priority, then o others"
 *   (both null: no ratio, a category is recorded only).
 * - organizations.queue_ageing_ceiling_minutes: nobody first-come waits longer than this behind
 *   a later arrival; null: no ceiling.
 * - visits.priority_category: the visitor's category, given by staff (the kiosk's question is
 *   still to come).
 * - visits.call_kind and visit_events.call_kind: how Call next counted the call for the ratio
 *   ('priority', 'regular'); null for a booked visitor within grace, a transfer sent ahead, or
 *   a call not by Call next. The ratio counts the events (a visit called twice, after an Undo
 *   or back from a no-show, was called twice); an Undo of a call clears its event's kind.
 */
const CATEGORIES = `('elderly', 'pregnant', 'disability', 'emergency', 'premium')`;
const statements = [
  `alter table organizations add column queue_priority_categories text[] not null default '{}'
     check (queue_priority_categories <@ array${CATEGORIES.replace('(', '[').replace(')', ']')}::text[])`,
  `alter table organizations add column queue_premium_label text`,
  `alter table organizations add column queue_ratio_priority smallint
     check (queue_ratio_priority between 1 and 5)`,
  `alter table organizations add column queue_ratio_others smallint
     check (queue_ratio_others between 0 and 10)`,
  `alter table organizations add constraint organizations_queue_ratio_both
     check ((queue_ratio_priority is null) = (queue_ratio_others is null))`,
  `alter table organizations add column queue_ageing_ceiling_minutes smallint
     check (queue_ageing_ceiling_minutes between 10 and 240)`,
  `alter table visits add column priority_category text check (priority_category in ${CATEGORIES})`,
  `alter table visits add column call_kind text check (call_kind in ('priority', 'regular'))`,
  // A counter's last calls are read through visit_events_counter_idx (migration 024).
  `alter table visit_events add column call_kind text check (call_kind in ('priority', 'regular'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
