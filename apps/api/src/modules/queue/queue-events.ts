import { sql } from 'kysely';
import type { Db } from '../../db/schema.js';

/** Every process LISTENs here; the payload is the organization whose queue changed. */
export const QUEUE_CHANNEL = 'queue_changes';

/**
 * Called inside every transaction that changes an organization's queue (a visit entering,
 * moving, ending; a counter opening or pausing). PostgreSQL delivers it at commit, to every
 * process, and drops it on rollback; equal payloads in one transaction arrive once.
 */
export async function notifyQueueChanged(trx: Db, organizationId: string): Promise<void> {
  await sql`select pg_notify(${QUEUE_CHANNEL}, ${organizationId})`.execute(trx);
}
