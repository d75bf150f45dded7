/**
 * A visitor leaves the line by themself: from their own page, with their
 * visit's key. A server transition with its visit event, like every other move of a visit,
 * so the counters stop seeing them and the people behind move up (and get their "you are
 * next" SMS if now due). Idempotent: leaving again answers the same ended turn.
 */
import type { VisitTurn } from '@qless/contract';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { loadQueueDay } from './queue-day.js';
import { notifyQueueChanged } from './queue-events.js';
import { readVisitTurn } from './queue-live.js';
import type { TurnMessages } from './turn-messages.js';
import { findVisit, inTransaction, lockQueue, transitionVisit } from './visits.repository.js';

/** States a visitor may leave from: waiting, or called and not come yet (the counter is freed). */
const LEAVABLE = ['waiting', 'called'] as const;

/** The visit a transfer chain led to from `visitId` (the key follows a transfer). */
export async function currentOf(trx: Db, visitId: string) {
  let visit = await findVisit(trx, visitId);
  for (let hop = 0; visit?.state === 'transferred' && hop < 5; hop++) {
    const next = await trx
      .selectFrom('visits')
      .selectAll()
      .where('transferred_from', '=', visit.id)
      .executeTakeFirst();
    if (!next) break;
    visit = next;
  }
  return visit;
}

export async function leaveLine(
  db: Db,
  visitId: string,
  now: Date,
  turns: TurnMessages | null,
): Promise<VisitTurn> {
  return inTransaction(db, async (trx) => {
    const first = await findVisit(trx, visitId);
    if (!first) throw new AppError(404, 'VISIT_NOT_FOUND', 'No such visit.');
    const organizationId = first.organization_id;
    await lockQueue(trx, organizationId);
    const visit = await currentOf(trx, visitId);
    if (!visit) throw new AppError(404, 'VISIT_NOT_FOUND', 'No such visit.');
    if (visit.state !== 'left') {
      if (!(LEAVABLE as readonly string[]).includes(visit.state)) {
        throw new AppError(
          409,
          'VISIT_NOT_ACTIONABLE',
          visit.state === 'serving'
            ? 'You are being served: tell the counter.'
            : 'This visit is over already.',
        );
      }
      const left = await transitionVisit(
        trx,
        visit,
        {
          from: LEAVABLE,
          to: 'left',
          kind: 'left_by_visitor',
          set: { ended_at: now },
          counterId: visit.counter_id,
          byUser: null,
        },
        now,
      );
      if (!left) throw new AppError(409, 'VISIT_NOT_ACTIONABLE', 'This visit just moved.');
      await notifyQueueChanged(trx, organizationId);
    }
    const day = await loadQueueDay(trx, organizationId, now);
    if (turns && visit.state !== 'left') await turns.afterChange(trx, day);
    const turn = await readVisitTurn(trx, day, visitId);
    if (!turn) throw new AppError(404, 'VISIT_NOT_FOUND', 'No such visit.');
    return turn;
  });
}
