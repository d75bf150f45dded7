import { type Kysely, sql } from 'kysely';

/**
 * Payments whose outcome could not be learned from the provider are flagged for an
 * operator instead of failing silently.
 */
const statements = [
  `alter table payments add column needs_review boolean not null default false`,
  `alter table payments add column review_reason text`,
  `alter table payments add constraint payments_review_reason_ck
      check (not needs_review or review_reason is not null)`,
  `create index payments_needs_review_idx on payments (created_at) where needs_review`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
