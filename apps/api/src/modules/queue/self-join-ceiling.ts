/**
 * The join page's ceilings (decision 125): per-address and per-phone limits let 60
 * addresses put 300 names in one line in 10 s. Whoever joins, an organization takes so many
 * visits from its page a minute, and a service holds so many of them waiting at once. Counted
 * from the visits themselves under the organization's queue lock (the caller holds it), so
 * joins sent at once, to any process, cannot all pass. Joins by SMS (decision 136) count with
 * them: both come from outside the hall.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { LIMITS } from '../../limits/declarations.js';
import { MINUTE } from '../../limits/limit-kinds.js';

export interface SelfJoinCeilings {
  /** Visits joined from the public page per organization per minute (sliding). */
  perMinute: number;
  /** Visits joined from the public page waiting at once on one service. */
  waiting: number;
}

/** A refusal of the ceilings: its status, code and message, and the seconds to wait (429). */
export class SelfJoinRefused extends AppError {
  constructor(
    kind: 'queue-self-joins-per-organization' | 'queue-self-joins-waiting',
    readonly retryAfterSeconds: number | null,
  ) {
    const refusal = LIMITS[kind].refusal;
    super(refusal.status, refusal.code, refusal.message);
  }
}

/** Throws SelfJoinRefused when a self-join of `serviceId` now would pass a ceiling. */
export async function assertSelfJoinRoom(
  trx: Db,
  organizationId: string,
  serviceId: string,
  date: string,
  now: Date,
  ceilings: SelfJoinCeilings,
): Promise<void> {
  const since = new Date(now.getTime() - MINUTE);
  const { rows } = await sql<{ recent: number; oldest: Date | null; waiting: number }>`
    select
      count(*) filter (where created_at > ${since})::int as recent,
      min(created_at) filter (where created_at > ${since}) as oldest,
      count(*) filter (
        where state = 'waiting' and service_id = ${serviceId} and visit_date = ${date}
      )::int as waiting
    from visits
    where organization_id = ${organizationId}
      and source in ('self', 'sms')
      and transferred_from is null
      and (created_at > ${since} or (state = 'waiting' and visit_date = ${date}))`.execute(trx);
  const counts = rows[0];
  if (!counts) return;
  if (counts.recent >= ceilings.perMinute) {
    const oldest = counts.oldest ? new Date(counts.oldest).getTime() : now.getTime();
    const wait = Math.max(1, Math.ceil((oldest + MINUTE - now.getTime()) / 1000));
    throw new SelfJoinRefused('queue-self-joins-per-organization', wait);
  }
  if (counts.waiting >= ceilings.waiting) {
    throw new SelfJoinRefused('queue-self-joins-waiting', null);
  }
}
