import { type Kysely, sql } from 'kysely';

/**
 * Messages that stop being worth sending (decision 140): outbox.useful_until is the moment
 * after which the worker records the message as skipped ("too late") instead of sending it
 * ("you are next" an hour late says nothing true). Null: worth sending whenever it goes.
 * The index serves the per-recipient cap, which counts what a number was sent lately.
 */
const statements = [
  `alter table outbox add column useful_until timestamptz`,
  `create index outbox_sent_to_ix on outbox (to_address, sent_at) where status = 'sent'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
