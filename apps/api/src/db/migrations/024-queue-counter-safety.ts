import { type Kysely, sql } from 'kysely';

/**
 * The counter a branch can trust (decision 118):
 * - organizations.queue_transfer_place: where a transferred visitor stands in the new line:
 *   'arrival' (by their first arrival in the branch, the default) or 'front' (first).
 * - visits.place_at: the instant that orders a visit among first-come visitors when it is
 *   not the moment it entered this line (a transfer by arrival keeps the first arrival).
 *   queued_at stays the moment it entered this line, so waits per line stay measured apart.
 * - visits.ahead: a transfer sent to the front of its new line (ahead of everyone but earlier
 *   such transfers).
 * - visit_events (counter_id, id): a counter's latest event, read by Undo under the queue lock
 *   (without it, a counter with no event walks every organization's events).
 */
const statements = [
  `alter table organizations add column queue_transfer_place text not null default 'arrival'
     constraint organizations_queue_transfer_place_ck
     check (queue_transfer_place in ('arrival', 'front'))`,
  `alter table visits add column place_at timestamptz`,
  `alter table visits add column ahead boolean not null default false`,
  `create index visit_events_counter_idx on visit_events (counter_id, id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
