import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * The simulator's book of the collects it accepted, as a real provider keeps one: it is what
 * lets the simulator find a transaction by our payment id (Campay does it by its history).
 */
export interface SimulatorLedger {
  /** Records a collect; a second record for one payment keeps the first. */
  record(paymentId: string, reference: string, at: Date): Promise<void>;
  /** The reference of the collect made for this payment, or null when none was made. */
  find(paymentId: string): Promise<string | null>;
}

/** Rows older than this go with the next collect: no payment stays pending that long. */
const KEPT_MS = 2 * 86_400_000;

/** The ledger in the app's database (table simulator_collects, migration 023). */
export function databaseSimulatorLedger(db: Kysely<DB>): SimulatorLedger {
  return {
    async record(paymentId, reference, at) {
      // One statement, so one round trip: the insert, and the pruning of old rows.
      await sql`
        with pruned as (
          delete from simulator_collects
          where collected_at < ${new Date(at.getTime() - KEPT_MS)}
        )
        insert into simulator_collects (payment_id, reference, collected_at)
        values (${paymentId}, ${reference}, ${at})
        on conflict (payment_id) do nothing`.execute(db);
    },
    async find(paymentId) {
      const row = await db
        .selectFrom('simulator_collects')
        .select('reference')
        .where('payment_id', '=', paymentId)
        .executeTakeFirst();
      return row?.reference ?? null;
    },
  };
}
