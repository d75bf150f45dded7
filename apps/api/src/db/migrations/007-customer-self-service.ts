import { type Kysely, sql } from 'kysely';

/**
 * Customer self-service: each organization's cut-off for cancelling or
 * rescheduling, the customer's language for messages, and what happened to a booking
 * (who cancelled it, where a reschedule moved it from), so the organization's list says so.
 * One statement per entry (PGlite's extended protocol takes one at a time).
 */
const statements = [
  `alter table organizations add column change_cutoff_minutes integer not null default 120
     constraint organizations_change_cutoff_ck check (change_cutoff_minutes between 0 and 10080)`,
  `alter table bookings add column locale text not null default 'en'
     constraint bookings_locale_ck check (locale in ('en', 'fr'))`,
  `alter table bookings add column cancelled_by text
     constraint bookings_cancelled_by_ck check (cancelled_by in ('customer', 'organization'))`,
  `alter table bookings add column rescheduled_at timestamptz`,
  `alter table bookings add column rescheduled_from_date date`,
  `alter table bookings add column rescheduled_from_slot_id uuid references slots(id)`,
  `alter table bookings add column reschedule_count integer not null default 0`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
