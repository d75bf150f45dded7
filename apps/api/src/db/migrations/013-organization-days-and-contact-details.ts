import { type Kysely, sql } from 'kysely';

/**
 * An organization made from a contact request opens Monday to Friday
 * until its admin confirms the days (a bank open on Sunday by default took Sunday
 * bookings); `open_days_confirmed` is false for those alone and keeps them unlisted until
 * then. Every organization that exists already is live with the days it has: true for them,
 * and the default (demo data and tests make organizations directly).
 * A contact request also says who to call back and on which number.
 */
const statements = [
  `alter table organizations add column open_days_confirmed boolean not null default true`,
  `alter table contact_requests add column contact_name text not null default ''`,
  `alter table contact_requests add column phone text not null default ''`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
