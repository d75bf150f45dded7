/**
 * The signed record of a branch's calls for a day (decision 139): anyone holding it checks,
 * with the deployment's public key alone, that these calls were made in this order — and, with
 * an earlier record of the same day, that nothing before it was rewritten since (the earlier
 * head is a hash in the later chain).
 *
 * Each entry's hash = SHA-256 (hex) of `${previous hash}\n${JSON of the entry without hash}`,
 * keys in the order seq, at, kind, number, counter, clerk, reason; the first previous hash is
 * the genesis, SHA-256 of `qless-calls:${organization_id}:${date}`. An entry names its counter by
 * id (a counter renamed later changes no hash); the names, as they are now, stand beside the
 * chain. `seq` is the entry's place in the day (1, 2, …), not an id of the deployment.
 */
import { createHash } from 'node:crypto';
import {
  CALLS_RECORD_TYPE,
  type CallRecordEntry,
  type CallsRecord,
  type CallsRecordResponse,
  formatVisitNumber,
} from '@qless/contract';
import type { Db } from '../../db/schema.js';
import type { TicketSigner } from '../tickets/tickets.module.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const genesisOf = (organizationId: string, date: string) =>
  sha256(`qless-calls:${organizationId}:${date}`);

/** An entry's hash, chained to the one before. */
export function entryHash(previous: string, entry: Omit<CallRecordEntry, 'hash'>): string {
  const { seq, at, kind, number, counter, clerk, reason } = entry;
  return sha256(
    `${previous}\n${JSON.stringify({ seq, at, kind, number, counter, clerk, reason })}`,
  );
}

/**
 * How old an event must be to enter a record: an event's id is given at its insert, and two
 * calls may commit out of id order within a moment; a record leaves the last seconds out, so a
 * later one only ever adds at its end.
 */
export const RECORD_SETTLE_MS = 10_000;

/** The day's calls, recalls and calls taken back, in event order, chained. */
export async function callsOfDay(
  db: Db,
  organizationId: string,
  date: string,
  now: Date,
): Promise<{ genesis: string; calls: CallRecordEntry[]; counters: Record<string, string> }> {
  const rows = await db
    .selectFrom('visit_events as e')
    .innerJoin('visits as v', 'v.id', 'e.visit_id')
    .leftJoin('counters as c', 'c.id', 'e.counter_id')
    .select([
      'e.id',
      'e.at',
      'e.kind',
      'e.by_user',
      'e.reason',
      'e.counter_id',
      'v.letter',
      'v.number',
      'c.name as counter_name',
    ])
    .where('v.organization_id', '=', organizationId)
    .where('v.visit_date', '=', date)
    .where('e.kind', 'in', ['called', 'recalled', 'undone_called'])
    .where('e.at', '<=', new Date(now.getTime() - RECORD_SETTLE_MS))
    .orderBy('e.id')
    .execute();
  const genesis = genesisOf(organizationId, date);
  let previous = genesis;
  const counters: Record<string, string> = {};
  const calls = rows.map((r, index): CallRecordEntry => {
    if (r.counter_id && r.counter_name) counters[r.counter_id] = r.counter_name;
    const entry = {
      seq: index + 1,
      at: new Date(r.at).toISOString(),
      kind: r.kind as CallRecordEntry['kind'],
      number: formatVisitNumber(r.letter, r.number),
      counter: r.counter_id,
      clerk: r.by_user,
      reason: r.reason,
    };
    previous = entryHash(previous, entry);
    return { ...entry, hash: previous };
  });
  return { genesis, calls, counters };
}

/** The day's record, signed by the deployment's key. */
export async function signedCallsRecord(
  db: Db,
  signer: TicketSigner,
  organizationId: string,
  date: string,
  now: Date,
): Promise<CallsRecordResponse> {
  const { genesis, calls, counters } = await callsOfDay(db, organizationId, date, now);
  const record: CallsRecord = {
    organization_id: organizationId,
    date,
    made_at: now.toISOString(),
    genesis,
    calls,
    head: calls.at(-1)?.hash ?? genesis,
    counters,
  };
  return { record, jws: await signer.signDocument(record, CALLS_RECORD_TYPE) };
}
