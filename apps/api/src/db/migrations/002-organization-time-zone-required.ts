import { type Kysely, sql } from 'kysely';

/**
 * An organization's zone is chosen by the application (DEFAULT_TIME_ZONE), not by a
 * default baked into the schema: every insert names it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table organizations alter column time_zone drop default`.execute(db);
}
