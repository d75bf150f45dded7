import { type Kysely, sql } from 'kysely';

/**
 * The payment simulator's own record of the collects it accepted (decision 034, amended):
 * what a real provider keeps on its side, so that the simulator, like Campay's history, can
 * find a transaction by our payment id when the collect's answer never reached the payment
 * (the process died or its database link failed between the collect and saving its
 * reference). Its signing key already lives in `app_secrets`. Empty when Campay is the provider.
 * No foreign key: this is the provider's book, not ours. Each collect drops the rows older than
 * two days in the same statement (simulator-ledger.ts): no payment waits that long.
 */
const statements = [
  `create table simulator_collects (
     payment_id text primary key check (length(payment_id) <= 100),
     reference text not null check (length(reference) <= 200),
     collected_at timestamptz not null
   )`,
  `create index simulator_collects_collected_at_idx on simulator_collects (collected_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
