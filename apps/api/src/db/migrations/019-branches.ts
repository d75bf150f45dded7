import { type Kysely, sql } from 'kysely';

/**
 * Branches (decision 024). An organization row stays the unit that has hours,
 * closures, services, counters, a queue and staff: it is one branch. A branch points at the
 * head of its organization (`parent_id`); the head is a branch too (its first). Every
 * organization that existed before this migration is the head of a one-branch organization,
 * so nothing about it changes: no row is rewritten.
 *
 * - `branch_name` is what a customer picks by ("Akwa", "Bonanjo"); the organization's name
 *   stays on every row (the head's is the one the catalogue shows).
 * - `latitude`/`longitude` (optional) let a phone that shares its location sort branches by
 *   distance without any map service.
 * - `branch_manager` runs one branch: everything an organization admin does there, but
 *   no other branch and no new branches.
 */
const statements = [
  `alter table organizations
     add column parent_id uuid references organizations(id),
     add column branch_name text check (branch_name is null or length(branch_name) between 1 and 80),
     add column latitude double precision check (latitude is null or latitude between -90 and 90),
     add column longitude double precision check (longitude is null or longitude between -180 and 180),
     add constraint organizations_parent_not_self_ck check (parent_id is null or parent_id <> id),
     add constraint organizations_coordinates_ck check ((latitude is null) = (longitude is null))`,
  `create index organizations_parent_idx on organizations (parent_id) where parent_id is not null`,
  // Two branches of one organization never share a name (customers pick by it).
  `create unique index organizations_branch_name_uq
     on organizations ((coalesce(parent_id, id)), lower(branch_name)) where branch_name is not null`,
  `alter table users drop constraint users_role_check`,
  `alter table users add constraint users_role_check
     check (role in ('operator', 'org_admin', 'branch_manager', 'staff'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
