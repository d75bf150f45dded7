import { type Kysely, sql } from 'kysely';

/**
 * Short links in customers' SMS (decision 141): bookings.link_code, the 12 characters of
 * `/t/{code}`, made the first time a message about the booking is written, and answered by
 * a redirect to the ticket page with its key. Unique among bookings that have one.
 */
const statements = [
  `alter table bookings add column link_code text`,
  `create unique index bookings_link_code_uq on bookings (link_code) where link_code is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
