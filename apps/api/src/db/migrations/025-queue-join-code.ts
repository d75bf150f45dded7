import { type Kysely, sql } from 'kysely';

/**
 * A proof of presence for the join page (decision 125):
 * organizations.queue_join_code: a visitor joining from the poster must type the 4-digit code
 * the board in the hall shows (join-code.ts). Off by default, so no branch without a board
 * breaks.
 */
const statements = [
  `alter table organizations add column queue_join_code boolean not null default false`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
