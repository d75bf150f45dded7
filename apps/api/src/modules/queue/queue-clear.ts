/**
 * Staff clear a flood of joins from the poster in one act (decision 125): today's
 * visits joined from the public page that still wait and were never called (no 'called'
 * event: a call taken back or a no-show put back counts as called) leave the line, each by
 * its own transition with its visit_events row ('cleared_by_staff', by the member of staff),
 * under the organization's queue lock; then the line settles once (places, "you are next").
 * Walk-ins added by staff, bookings and transfers are never touched.
 */
import { sql } from 'kysely';
import { todayOf } from '../../core/local-time.js';
import type { Db } from '../../db/schema.js';
import { settle } from './queue-settle.js';
import type { TurnMessages } from './turn-messages.js';
import { inTransaction, lockQueue, transitionVisit } from './visits.repository.js';

export interface ClearSelfJoins {
  organizationId: string;
  userId: string;
  /** Only those who joined in the last this many minutes; all of today's when null. */
  withinMinutes: number | null;
  /** Only this service's line, when named. */
  serviceId: string | null;
}

/** The number of visits cleared (0: nothing to clear, nothing announced). */
export async function clearSelfJoins(
  db: Db,
  c: ClearSelfJoins,
  now: Date,
  turns: TurnMessages | null,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    await lockQueue(trx, c.organizationId);
    const org = await trx
      .selectFrom('organizations')
      .select('time_zone')
      .where('id', '=', c.organizationId)
      .executeTakeFirstOrThrow();
    let query = trx
      .selectFrom('visits as v')
      .select(['v.id', 'v.organization_id'])
      .where('v.organization_id', '=', c.organizationId)
      .where('v.visit_date', '=', todayOf(org, now))
      .where('v.source', 'in', ['self', 'sms'])
      .where('v.state', '=', 'waiting')
      .where('v.called_at', 'is', null)
      .where('v.transferred_from', 'is', null)
      .where(
        sql<boolean>`not exists (select 1 from visit_events e
          where e.visit_id = v.id and e.to_state = 'called')`,
      );
    if (c.withinMinutes !== null) {
      query = query.where('v.created_at', '>=', new Date(now.getTime() - c.withinMinutes * 60_000));
    }
    if (c.serviceId !== null) query = query.where('v.service_id', '=', c.serviceId);
    const visits = await query.orderBy('v.created_at').execute();
    let cleared = 0;
    for (const visit of visits) {
      const moved = await transitionVisit(
        trx,
        visit,
        {
          from: ['waiting'],
          to: 'left',
          kind: 'cleared_by_staff',
          set: { ended_at: now },
          counterId: null,
          byUser: c.userId,
        },
        now,
      );
      if (moved) cleared += 1;
    }
    if (cleared > 0) await settle(trx, c.organizationId, now, turns);
    return cleared;
  });
}
