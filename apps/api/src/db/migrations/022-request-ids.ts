import { type Kysely, sql } from 'kysely';

/**
 * Metrics and logs (decision 029).
 * - `request_id`: the id of the request that initiated a payment or queued a message, so
 *   the reconciler that checks it, the callback that settles it and the worker that sends
 *   the message log the same id as the request did. Nullable: rows written before, and by
 *   work no request started (a sweep), have none; a previous release writes none.
 * - Payments flagged for refund are counted at every scrape (`qless_payments{state}`), as
 *   those flagged for review are: a partial index keeps that count off the whole table.
 */
const statements = [
  `alter table payments add column request_id text
     check (request_id is null or length(request_id) <= 64)`,
  `alter table outbox add column request_id text
     check (request_id is null or length(request_id) <= 64)`,
  `create index payments_needs_refund_idx on payments (created_at) where needs_refund`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
