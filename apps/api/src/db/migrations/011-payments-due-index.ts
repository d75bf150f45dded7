import { type Kysely, sql } from 'kysely';

/**
 * The reconciler's claim reads pending payments due for a status check: neither created
 * nor last checked within RECONCILE_AFTER_MS, least recently looked at first. Ordered by
 * creation time alone, every claim walked past all the payments checked a moment ago that
 * are still pending at the provider (5,000 of them: 4.5 ms a claim); by the time each was
 * last looked at, the index starts at the first due one (0.5 ms). A payment is checked only
 * after it was created, so `coalesce(last_checked_at, created_at)` is that time.
 */
const statements = [
  `create index payments_due_idx on payments ((coalesce(last_checked_at, created_at)))
     where status = 'PENDING'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
