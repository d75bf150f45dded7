/**
 * "LATE": a waiting visitor steps back one place in their service's line, once per visit
 * (decision 136) — the person behind them goes first, and they keep every place after. Their
 * place becomes the next visitor's plus a millisecond (`place_at`, the key first-come visitors
 * are ordered by), under the organization's queue lock, with a `moved_back` visit event.
 */
import type { Db, VisitRow } from '../../db/schema.js';
import { loadQueueDay, orderable, type QueueDay } from './queue-day.js';
import { hasBookedPriority } from './queue-order.js';
import { settle } from './queue-settle.js';
import type { TurnMessages } from './turn-messages.js';
import { inTransaction, lockQueue, recordVisitEvent } from './visits.repository.js';

export type MoveBack =
  | { kind: 'moved'; visit: VisitRow; day: QueueDay }
  | { kind: 'once_already' | 'last_already' | 'not_waiting' | 'cannot_move'; visit: VisitRow };

/**
 * Whether a waiting visit is ordered by its place among first-come visitors (`place_at`): not
 * a booked visitor holding their slot's priority, not a transfer sent to the front.
 */
function firstCome(visit: VisitRow, day: QueueDay): boolean {
  return !visit.ahead && !hasBookedPriority(orderable(visit), day.now, day.grace);
}

export function moveBackOnePlace(
  db: Db,
  visit: VisitRow,
  now: Date,
  turns: TurnMessages | null,
): Promise<MoveBack> {
  return inTransaction(db, async (trx) => {
    await lockQueue(trx, visit.organization_id);
    const day = await loadQueueDay(trx, visit.organization_id, now);
    const line = day.waiting.filter((v) => v.service_id === visit.service_id);
    const at = line.findIndex((v) => v.id === visit.id);
    const mine = line[at];
    if (!mine) return { kind: 'not_waiting', visit };
    const before = await trx
      .selectFrom('visit_events')
      .select('id')
      .where('visit_id', '=', visit.id)
      .where('kind', '=', 'moved_back')
      .executeTakeFirst();
    if (before) return { kind: 'once_already', visit: mine };
    const next = line[at + 1];
    if (!next) return { kind: 'last_already', visit: mine };
    // Only a first-come visitor behind another steps back by its place; anyone else's order
    // is not theirs to change (a booked slot, a transfer sent ahead).
    if (!firstCome(mine, day) || !firstCome(next, day)) return { kind: 'cannot_move', visit: mine };
    const nextPlace = (next.place_at ?? next.queued_at).getTime();
    const moved = await trx
      .updateTable('visits')
      .set({ place_at: new Date(nextPlace + 1), updated_at: now })
      .where('id', '=', mine.id)
      .where('state', '=', 'waiting')
      .returningAll()
      .executeTakeFirst();
    if (!moved) return { kind: 'not_waiting', visit: mine };
    await recordVisitEvent(trx, {
      visitId: mine.id,
      organizationId: mine.organization_id,
      kind: 'moved_back',
      from: 'waiting',
      to: 'waiting',
      counterId: null,
      byUser: null,
      at: now,
    });
    return {
      kind: 'moved',
      visit: moved,
      day: await settle(trx, mine.organization_id, now, turns),
    };
  });
}
