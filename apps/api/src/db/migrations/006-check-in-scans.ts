import { type Kysely, sql } from 'kysely';

/**
 * Check-in at the counter: the id the scanning device gave the scan that
 * checked a booking in, so an offline check-in sent twice is recognised as the same one.
 * One statement per entry (PGlite's extended protocol takes one at a time).
 */
const statements = [`alter table bookings add column checked_in_client_id uuid`];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
