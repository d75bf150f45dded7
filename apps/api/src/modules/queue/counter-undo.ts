/**
 * Taking back a counter's mistake (decision 118):
 * - Undo: the counter's last call, no-show, done or transfer is reverted while it is still
 *   the counter's latest transition and the visit's, within UNDO_WINDOW_SECONDS; otherwise
 *   409 NOTHING_TO_UNDO. The undo is a visit event of its own ('undone_<kind>').
 * - A no-show comes back (the visitor was at the toilet): no_show → waiting keeping the
 *   original queued time, so the order rule puts them back at their old place ('returned').
 */
import { type CounterActionResponse, type QueueVisit, UNDO_WINDOW_SECONDS } from '@qless/contract';
import type { AuthContext } from '../../core/access/auth-guard.js';
import { assertOrganizationAccess } from '../../core/access/roles.js';
import { todayOf } from '../../core/local-time.js';
import type { Db, VisitRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { withdrawFeedback } from '../feedback/feedback.module.js';
import { counterOf, notActionable, settle } from './counter-actions.js';
import { counterView, findCounter } from './counters.repository.js';
import type { QueueServiceDeps } from './queue-deps.js';
import { counterOfDay, visitView } from './queue-views.js';
import {
  findVisit,
  heldBy,
  inTransaction,
  lockCounter,
  lockQueue,
  transitionVisit,
} from './visits.repository.js';

/** The transitions a counter may take back, by the kind of their event. */
const UNDOABLE = ['called', 'no_show', 'no_show_after_recalls', 'done', 'transferred_out'];

const nothing = (message: string) => new AppError(409, 'NOTHING_TO_UNDO', message);

/**
 * The latest event of a visit, or of a counter (by id: events are numbered in order); with
 * `before`, the latest one older than that event.
 */
function latestEvent(db: Db, by: { visitId?: string; counterId?: string; before?: string }) {
  let q = db
    .selectFrom('visit_events')
    .select(['id', 'visit_id', 'kind', 'from_state', 'to_state', 'at'])
    .orderBy('id', 'desc')
    .limit(1);
  if (by.visitId) q = q.where('visit_id', '=', by.visitId);
  if (by.counterId) q = q.where('counter_id', '=', by.counterId);
  if (by.before) q = q.where('id', '<', by.before);
  return q.executeTakeFirst();
}

/** SMS of a visit still waiting to leave, withdrawn (`what`: 'called', or every kind). */
async function withdrawSms(trx: Db, visitId: string, what = ''): Promise<void> {
  await trx
    .deleteFrom('outbox')
    .where('dedupe_key', 'like', `visit:${visitId}:${what}%`)
    .where('status', '=', 'pending')
    .execute();
}

export async function undoLast(
  deps: QueueServiceDeps,
  auth: AuthContext,
  counterId: string,
): Promise<CounterActionResponse> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const counter = await counterOf(trx, auth, counterId);
    const orgId = counter.organization_id;
    await lockCounter(trx, counterId);
    await lockQueue(trx, orgId);
    const last = await latestEvent(trx, { counterId });
    if (!last || !UNDOABLE.includes(last.kind)) {
      throw nothing('This counter has nothing to undo.');
    }
    if (now.getTime() - last.at.getTime() > UNDO_WINDOW_SECONDS * 1000) {
      throw nothing(`Too late to undo: only within ${UNDO_WINDOW_SECONDS} seconds.`);
    }
    const visit = await findVisit(trx, last.visit_id);
    const latestOfVisit = await latestEvent(trx, { visitId: last.visit_id });
    if (!visit || latestOfVisit?.id !== last.id || visit.state !== last.to_state) {
      throw nothing('This visitor moved since: nothing to undo.');
    }
    const from = last.from_state;
    if (!from) throw nothing('This counter has nothing to undo.');
    const byUser = auth.user.id;
    const kind = `undone_${last.kind}`;
    let touched: VisitRow | null = null;
    if (last.kind === 'called') {
      touched = await transitionVisit(
        trx,
        visit,
        {
          from: ['called'],
          to: 'waiting',
          kind,
          // The next real call sends its own "go to counter" SMS; this one, if it has not
          // left yet, is withdrawn.
          // A call out of order taken back: its event keeps the reason (it was made, on the
          // record); the visit no longer shows it (decision 139).
          set: {
            counter_id: null,
            called_at: null,
            called_notified_at: null,
            call_kind: null,
            call_reason: null,
          },
          counterId,
          byUser,
        },
        now,
      );
      await withdrawSms(trx, visit.id, 'called');
      // The call taken back is not counted by the ratio (decision 138).
      await trx
        .updateTable('visit_events')
        .set({ call_kind: null })
        .where('id', '=', last.id)
        .execute();
      // A Call next that also finished the visitor being served: that Done is taken back too.
      touched = (await undoDoneOfCall(trx, counterId, last, byUser, now)) ?? touched;
    } else {
      // No-show, done and transfer gave the counter back: it takes the visit again, unless it
      // holds someone else now or was paused or closed since (it must hold nobody then).
      const current = (await findCounter(trx, counterId)) ?? counter;
      if (current.state !== 'open') {
        throw nothing('This counter was paused or closed since: open it again to undo.');
      }
      if (await heldBy(trx, counterId)) {
        throw nothing('This counter holds another visitor now: nothing to undo.');
      }
      if (last.kind === 'transferred_out') await dropSuccessor(trx, visit);
      if (last.kind === 'done') await withdrawFeedback(trx, visit.id);
      touched = await transitionVisit(
        trx,
        visit,
        {
          from: [visit.state],
          to: from,
          kind,
          set: { ended_at: null, counter_id: counterId },
          counterId,
          byUser,
        },
        now,
      );
    }
    if (!touched) throw nothing('This visitor moved since: nothing to undo.');
    const day = await settle(trx, orgId, now, deps.turns);
    const row = (await findCounter(trx, counterId)) ?? counter;
    return {
      counter: counterOfDay(day, counterId) ?? (await counterView(trx, row)),
      visit: await visitView(trx, day, (await findVisit(trx, touched.id)) ?? touched),
      undo: null,
    };
  });
}

/**
 * When `call` was made by Call next on a counter serving someone, that visit ended done in
 * the same instant (same transaction): it goes back to being served at the counter, and its
 * feedback SMS is withdrawn. Returns it, or null when the call finished nobody.
 */
async function undoDoneOfCall(
  trx: Db,
  counterId: string,
  call: { id: string; at: Date },
  byUser: string,
  now: Date,
): Promise<VisitRow | null> {
  const before = await latestEvent(trx, { counterId, before: call.id });
  if (before?.kind !== 'done' || before.at.getTime() !== call.at.getTime()) return null;
  const served = await findVisit(trx, before.visit_id);
  const latestOfServed = await latestEvent(trx, { visitId: before.visit_id });
  if (served?.state !== 'done' || latestOfServed?.id !== before.id) return null;
  const back = await transitionVisit(
    trx,
    served,
    {
      from: ['done'],
      to: 'serving',
      kind: 'undone_done',
      set: { ended_at: null, counter_id: counterId },
      counterId,
      byUser,
    },
    now,
  );
  if (back) await withdrawFeedback(trx, served.id);
  return back;
}

/**
 * The visit a transfer made, removed while nothing happened to it yet (it only waited): its
 * one 'transferred_in' event with it. The visitor's links name the first visit of the chain,
 * so none pointed at it.
 */
async function dropSuccessor(trx: Db, visit: VisitRow): Promise<void> {
  const next = await trx
    .selectFrom('visits')
    .select(['id', 'state'])
    .where('transferred_from', '=', visit.id)
    .executeTakeFirst();
  if (!next) return;
  const events = await trx
    .selectFrom('visit_events')
    .select('kind')
    .where('visit_id', '=', next.id)
    .execute();
  if (next.state !== 'waiting' || events.some((e) => e.kind !== 'transferred_in')) {
    throw nothing('The transferred visitor was called meanwhile: nothing to undo.');
  }
  // Its "you are next" SMS, if it has not left yet, is about a line the visitor is not in.
  await withdrawSms(trx, next.id);
  await trx.deleteFrom('visit_events').where('visit_id', '=', next.id).execute();
  await trx.deleteFrom('visits').where('id', '=', next.id).execute();
}

/** A no-show of today back in line at the place they had (their queued time is kept). */
export async function putNoShowBack(
  deps: QueueServiceDeps,
  auth: AuthContext,
  visitId: string,
): Promise<QueueVisit> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const found = await findVisit(trx, visitId);
    if (!found) throw new AppError(404, 'VISIT_NOT_FOUND', 'No such visit.');
    assertOrganizationAccess(auth, found.organization_id);
    await lockQueue(trx, found.organization_id);
    const visit = (await findVisit(trx, visitId)) ?? found;
    const org = await trx
      .selectFrom('organizations')
      .select('time_zone')
      .where('id', '=', visit.organization_id)
      .executeTakeFirstOrThrow();
    // A no-show, or a visitor who left the line from their phone by mistake.
    const leftByMistake =
      visit.state === 'left' &&
      (await latestEvent(trx, { visitId: visit.id }))?.kind === 'left_by_visitor';
    if ((visit.state !== 'no_show' && !leftByMistake) || visit.visit_date !== todayOf(org, now)) {
      throw notActionable('Only a no-show of today can be put back in line.');
    }
    const back = await transitionVisit(
      trx,
      visit,
      {
        from: [visit.state],
        to: 'waiting',
        kind: 'returned',
        // Called again later, they get the "go to counter" SMS again.
        set: {
          counter_id: null,
          called_at: null,
          ended_at: null,
          recalls: 0,
          called_notified_at: null,
        },
        counterId: null,
        byUser: auth.user.id,
      },
      now,
    );
    if (!back) throw notActionable('This visitor moved meanwhile.');
    const day = await settle(trx, visit.organization_id, now, deps.turns);
    return visitView(trx, day, (await findVisit(trx, visitId)) ?? back);
  });
}
