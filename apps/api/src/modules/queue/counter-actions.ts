/**
 * What a counter does: open, pause and close; call next, recall,
 * start, done, no-show and transfer on the visit it holds. Every act runs in one transaction
 * under the organization's queue lock and writes a visit_events row per transition. Undo and
 * putting a no-show back in line are counter-undo.ts's.
 */
import {
  type CallReason,
  type CounterAction,
  type CounterActionResponse,
  UNDO_WINDOW_SECONDS,
  type Undoable,
} from '@qless/contract';
import type { AuthContext } from '../../core/access/auth-guard.js';
import type { CounterRow, Db, VisitRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { claimChosen, claimNext } from './counter-claim.js';
import { transferVisit } from './counter-transfer.js';
import { counterView, findCounter, releaseSentTo, setCounterState } from './counters.repository.js';
import type { LineSettler } from './line-settler.js';
import { loadQueueDay, type QueueDay, visitNumber } from './queue-day.js';
import type { QueueServiceDeps } from './queue-deps.js';
import { notifyQueueChanged } from './queue-events.js';
import {
  assertActiveService,
  counterOf,
  notActionable,
  organizationName,
  settle,
  settleAfterCommit,
} from './queue-settle.js';
import { counterOfDay, visitView } from './queue-views.js';
import {
  findVisit,
  heldBy,
  inTransaction,
  lockCounter,
  lockQueue,
  transitionVisit,
} from './visits.repository.js';

export { assertActiveService, counterOf, notActionable, settle };

/** What an act aims at beyond the counter: a transfer's destination, a chosen visitor. */
export interface ActTarget {
  transfer?: { service_id?: string | undefined; counter_id?: string | undefined };
  chosen?: { visit_id: string; reason: CallReason };
}

const idle = () =>
  new AppError(409, 'COUNTER_IDLE', 'This counter holds nobody: call the next person first.');

/** What the answer offers to undo after an act, until when. */
function undoable(kind: Undoable['kind'], visit: VisitRow, now: Date): Undoable {
  return {
    kind,
    number: visitNumber(visit),
    until: new Date(now.getTime() + UNDO_WINDOW_SECONDS * 1000).toISOString(),
  };
}

export class CounterActions {
  constructor(
    private readonly deps: QueueServiceDeps,
    private readonly lines: LineSettler,
  ) {}

  async counterState(
    auth: AuthContext,
    counterId: string,
    state: 'open' | 'paused' | 'closed',
  ): Promise<CounterActionResponse> {
    const now = this.deps.clock.now();
    return inTransaction(this.deps.db, async (trx) => {
      const before = await counterOf(trx, auth, counterId);
      const orgId = before.organization_id;
      await lockCounter(trx, counterId);
      await lockQueue(trx, orgId);
      if (state !== 'open' && (await heldBy(trx, counterId))) {
        throw new AppError(
          409,
          'COUNTER_BUSY',
          'This counter holds a visitor: finish, mark a no-show or transfer first.',
        );
      }
      const row =
        before.state === state
          ? before
          : await setCounterState(trx, counterId, state, auth.user.id, now);
      if (state === 'closed') await releaseSentTo(trx, counterId);
      const day = await settle(trx, orgId, now, this.deps.turns);
      return { counter: counterOfDay(day, row.id) ?? (await counterView(trx, row)), visit: null };
    });
  }

  /**
   * A counter action on the line or on the visit the counter holds. Call next is atomic:
   * under the organization's queue lock, the day's waiting visits are read, ordered by the
   * rule, and the first of the counter's services is claimed by a conditional UPDATE — so
   * twenty counters pressing at once call twenty different people. Nobody waiting: 200 with
   * `visit: null` (the screen says so; a serving visit was still finished). No-show is
   * refused (409 NO_SHOW_TOO_EARLY) until the visitor was recalled as many times as the
   * organization set (decision 118).
   */
  async act(
    auth: AuthContext,
    counterId: string,
    action: CounterAction,
    target: ActTarget = {},
  ): Promise<CounterActionResponse> {
    const now = this.deps.clock.now();
    const by = auth.user.id;
    // One act of a counter at a time (the counter's lock: a double tap, Undo, closing); the
    // organization's queue lock only around what reads or changes the waiting line (Call
    // next's claim, a transfer). The day is read, and the line's SMS decided, after commit.
    const changed = await inTransaction(this.deps.db, async (trx) => {
      const first = await counterOf(trx, auth, counterId);
      const orgId = first.organization_id;
      await lockCounter(trx, counterId);
      // Read again under the lock: a clerk may have closed it meanwhile.
      const counter = (await findCounter(trx, counterId)) ?? first;
      const held = (await heldBy(trx, counterId)) ?? null;
      let touched: VisitRow | null = null;
      let organization: string | undefined;
      const nameOf = async () => {
        organization ??= await organizationName(trx, orgId);
        return organization;
      };
      // The visit this action ended done, if any (done, or call next while serving).
      let finished: VisitRow | null = null;
      let undo: Undoable | null = null;
      const move = (visit: VisitRow, change: Parameters<typeof transitionVisit>[2]) =>
        transitionVisit(trx, visit, change, now);
      const maxRecalls = async () =>
        (
          await trx
            .selectFrom('organizations')
            .select('queue_max_recalls')
            .where('id', '=', orgId)
            .executeTakeFirstOrThrow()
        ).queue_max_recalls;
      // Done and no-show end the held visit the same way, from one state each.
      const end = async (from: 'called' | 'serving', to: 'done' | 'no_show', refusal: string) => {
        if (!held) throw idle();
        if (held.state !== from) throw notActionable(refusal);
        return move(held, {
          from: [from],
          to,
          kind: to,
          set: { ended_at: now },
          counterId,
          byUser: by,
        });
      };

      switch (action) {
        case 'call_next':
        case 'call_visit': {
          if (counter.state !== 'open') {
            throw new AppError(409, 'COUNTER_CLOSED', 'Open this counter before calling someone.');
          }
          if (held?.state === 'called') {
            throw new AppError(
              409,
              'COUNTER_BUSY',
              'This counter is already calling someone: start, recall or mark a no-show first.',
            );
          }
          if (held?.state === 'serving') {
            finished = await move(held, {
              from: ['serving'],
              to: 'done',
              kind: 'done',
              set: { ended_at: now },
              counterId,
              byUser: by,
            });
          }
          // The finished visit's feedback SMS before the queue lock, not while it is held.
          if (finished) await this.deps.feedback?.afterDone(trx, finished, await nameOf(), now);
          const message = { counterName: counter.name, organization: await nameOf() };
          const call = { organizationId: orgId, counterId, by, now, message };
          const chosen = target.chosen;
          if (action === 'call_visit' && !chosen) throw new Error('call_visit without a visit');
          touched = chosen
            ? await claimChosen(trx, this.deps.turns, call, chosen.visit_id, chosen.reason)
            : await claimNext(trx, this.deps.turns, call);
          if (touched) undo = undoable('call_next', touched, now);
          break;
        }
        case 'recall': {
          if (!held) throw idle();
          if (held.state !== 'called') {
            throw notActionable(
              'This visitor is already being served: recall is for a called visitor.',
            );
          }
          touched =
            held.recalls >= (await maxRecalls())
              ? await move(held, {
                  from: ['called'],
                  to: 'no_show',
                  kind: 'no_show_after_recalls',
                  set: { ended_at: now },
                  counterId,
                  byUser: by,
                })
              : await move(held, {
                  from: ['called'],
                  to: 'called',
                  kind: 'recalled',
                  set: { recalls: held.recalls + 1, called_at: now },
                  counterId,
                  byUser: by,
                });
          if (touched?.state === 'no_show') undo = undoable('no_show', touched, now);
          break;
        }
        case 'start': {
          if (!held) throw idle();
          if (held.state !== 'called') throw notActionable('This visitor is already being served.');
          touched = await move(held, {
            from: ['called'],
            to: 'serving',
            kind: 'started',
            set: { serving_at: now },
            counterId,
            byUser: by,
          });
          break;
        }
        case 'done':
          touched = await end(
            'serving',
            'done',
            'Start serving this visitor before marking them done.',
          );
          finished = touched;
          if (touched) undo = undoable('done', touched, now);
          break;
        case 'no_show': {
          if (held?.state === 'called') {
            const max = await maxRecalls();
            if (held.recalls < max) {
              throw new AppError(
                409,
                'NO_SHOW_TOO_EARLY',
                `Recall this visitor first: ${held.recalls} of ${max} recalls made before a no-show.`,
              );
            }
          }
          touched = await end(
            'called',
            'no_show',
            'This visitor came and is being served: mark them done instead.',
          );
          if (touched) undo = undoable('no_show', touched, now);
          break;
        }
        case 'transfer': {
          if (!held) throw idle();
          await lockQueue(trx, orgId);
          touched = await transferVisit(trx, held, target.transfer ?? {}, counterId, by, now);
          undo = undoable('transfer', touched, now);
          break;
        }
      }

      if (action === 'done' && finished) {
        await this.deps.feedback?.afterDone(trx, finished, await nameOf(), now);
      }
      // A call's claim sent it with the queue lock.
      if (action !== 'call_next' && action !== 'call_visit') await notifyQueueChanged(trx, orgId);
      return { orgId, counter, touched, undo };
    });
    // A transfer's answer shows the visitor's new place: the line is read, and its SMS
    // decided, before answering. Call next's answer shows the called visitor: the line's
    // SMS are decided right after (line-settler.ts). The other acts move nobody in line.
    if (action === 'call_next' || action === 'call_visit') void this.lines.schedule(changed.orgId);
    if (action === 'transfer') {
      const day = await settleAfterCommit(this.deps.db, changed.orgId, now, this.deps.turns);
      return { ...(await this.answer(this.deps.db, day, changed)), undo: changed.undo };
    }
    const read = async (db: Db) =>
      this.answer(db, await loadQueueDay(db, changed.orgId, now, { line: false }), changed);
    const answer = this.deps.oneSession
      ? await inTransaction(this.deps.db, read)
      : await read(this.deps.db);
    return { ...answer, undo: changed.undo };
  }

  /** The counter and the visit it acted on, as the day now shows them. */
  private async answer(
    db: Db,
    day: QueueDay,
    changed: { counter: CounterRow; touched: VisitRow | null },
  ): Promise<Omit<CounterActionResponse, 'undo'>> {
    const counter =
      counterOfDay(day, changed.counter.id) ?? (await counterView(db, changed.counter));
    const visit = changed.touched
      ? await visitView(db, day, (await findVisit(db, changed.touched.id)) ?? changed.touched)
      : null;
    return { counter, visit };
  }
}
