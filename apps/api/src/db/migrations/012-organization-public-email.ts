import { type Kysely, sql } from 'kysely';

/**
 * The e-mail customers see is the one the organization chose to publish, never its
 * sign-in identity (decision 018): `organizations.email` is the first admin's sign-in
 * address when an operator approved a contact request, and the public list showed it to
 * anyone. An address that is no account's sign-in e-mail (the demo's contact addresses,
 * or one an organization was created with by hand) was a public contact already and stays
 * published; one that signs someone in is withdrawn until the admin publishes an address.
 */
const statements = [
  'alter table organizations add column public_email text',
  `update organizations o set public_email = o.email
     where not exists (select 1 from users u where lower(u.email) = lower(o.email))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
