import { type Kysely, sql } from 'kysely';

/**
 * Who marked a booking as a no-show (decision 020): the organization at its counter, or the
 * queue's sweep once the slot's start plus the late grace passed without a check-in. A
 * no-show of the sweep is the organization's to read in Bookings like any other; the column
 * tells them (and a later check-in of a late visitor) that nobody at the counter chose it.
 * Null for no-shows made before this column and for every other status.
 */
const statements = [
  `alter table bookings add column no_show_by text
     constraint bookings_no_show_by_ck check (no_show_by in ('organization', 'system'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
