/**
 * What a counter does (issue 19, issue 30 item 1): open, pause and close; call next, recall,
 * start, done, no-show and transfer on the visit it holds. Every act runs in one transaction
 * under the organization's queue lock and writes a visit_events row per transition. Undo and
 * putting a no-show back in line are counter-undo.ts's.
 */
import {
  type CounterAction,
  type CounterActionResponse,
  UNDO_WINDOW_SECONDS,
  type Undoable,
} from '@qless/contract';
import type { Db, VisitRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { AuthContext } from '../auth/auth-guard.js';
import { todayOf } from '../tickets/ticket-check.js';
import { counterView, findCounter, setCounterState } from './counters.repository.js';
import type { QueueServiceDeps } from './queue.service.js';
import { visitNumber } from './queue-day.js';
import { nextForCounter } from './queue-order.js';
import { assertActiveService, counterOf, settle, settleHeld } from './queue-settle.js';
import { counterOfDay, visitView } from './queue-views.js';
import {
  findVisit,
  heldBy,
  insertVisit,
  inTransaction,
  lockQueue,
  transitionVisit,
} from './visits.repository.js';

export { assertActiveService, counterOf, settle, settleHeld };

export const notActionable = (message: string) =>
  new AppError(409, 'VISIT_NOT_ACTIONABLE', message);
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
  constructor(private readonly deps: QueueServiceDeps) {}

  async counterState(
    auth: AuthContext,
    counterId: string,
    state: 'open' | 'paused' | 'closed',
  ): Promise<CounterActionResponse> {
    const now = this.deps.clock.now();
    return inTransaction(this.deps.db, async (trx) => {
      const before = await counterOf(trx, auth, counterId);
      const orgId = before.organization_id;
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
    transferTo: string | null = null,
  ): Promise<CounterActionResponse> {
    const now = this.deps.clock.now();
    const by = auth.user.id;
    return inTransaction(this.deps.db, async (trx) => {
      const first = await counterOf(trx, auth, counterId);
      const orgId = first.organization_id;
      await lockQueue(trx, orgId);
      // Read again under the lock: a clerk may have closed it meanwhile.
      const counter = (await findCounter(trx, counterId)) ?? first;
      const held = (await heldBy(trx, counterId)) ?? null;
      let touched: VisitRow | null = null;
      let called: VisitRow | null = null;
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
        case 'call_next': {
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
          touched = await this.claimNext(trx, orgId, counterId, by, now);
          called = touched;
          if (called) undo = undoable('call_next', called, now);
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
          touched = await this.transfer(trx, held, transferTo, counterId, by, now);
          undo = undoable('transfer', touched, now);
          break;
        }
      }

      // Call next and transfer move someone out of or into the waiting line.
      const day =
        action === 'call_next' || action === 'transfer'
          ? await settle(trx, orgId, now, this.deps.turns)
          : await settleHeld(trx, orgId, now);
      if (called) await this.deps.turns.called(trx, called, counter.name, day);
      if (finished) await this.deps.feedback?.afterDone(trx, finished, day.organization.name, now);
      const counterView_ = counterOfDay(day, counterId) ?? (await counterView(trx, counter));
      const visit = touched
        ? await visitView(trx, day, (await findVisit(trx, touched.id)) ?? touched)
        : null;
      return { counter: counterView_, visit, undo };
    });
  }

  /** The head of the line among the counter's services, claimed; null when nobody waits. */
  private async claimNext(
    trx: Db,
    organizationId: string,
    counterId: string,
    by: string,
    now: Date,
  ): Promise<VisitRow | null> {
    // Only what the choice needs (the full day, with its service-time history, is read
    // once after the change): the grace window, the counter's services, today's waiting.
    const org = await trx
      .selectFrom('organizations')
      .select(['time_zone', 'queue_grace_early_minutes', 'queue_grace_late_minutes'])
      .where('id', '=', organizationId)
      .executeTakeFirstOrThrow();
    const grace = {
      earlyMinutes: org.queue_grace_early_minutes,
      lateMinutes: org.queue_grace_late_minutes,
    };
    const links = await trx
      .selectFrom('counter_services')
      .select('service_id')
      .where('counter_id', '=', counterId)
      .execute();
    const services = new Set(links.map((l) => l.service_id));
    if (services.size === 0) return null;
    // Only the fields the rule reads (a line of 2,000 is read while the lock is held, on
    // every call); the chosen visit's whole row is read after.
    const candidates = (
      await trx
        .selectFrom('visits')
        .select(['id', 'service_id', 'slot_start', 'arrived_at', 'queued_at', 'place_at', 'ahead'])
        .where('organization_id', '=', organizationId)
        .where('visit_date', '=', todayOf(org, now))
        .where('state', '=', 'waiting')
        .where('service_id', 'in', [...services])
        .execute()
    ).map((v) => ({
      id: v.id,
      serviceId: v.service_id,
      slotStart: v.slot_start,
      arrivedAt: v.arrived_at,
      queuedAt: v.queued_at,
      placeAt: v.place_at,
      ahead: v.ahead,
    }));
    // The queue lock makes the first claim win; the loop only guards a visit moved by a
    // writer that did not take it (none should).
    for (;;) {
      const next = nextForCounter(candidates, services, now, grace);
      if (!next) return null;
      const row = await findVisit(trx, next.id);
      if (!row) return null;
      const claimed = await transitionVisit(
        trx,
        row,
        {
          from: ['waiting'],
          to: 'called',
          kind: 'called',
          set: { counter_id: counterId, called_at: now },
          counterId,
          byUser: by,
        },
        now,
      );
      if (claimed) return claimed;
      candidates.splice(
        candidates.findIndex((c) => c.id === next.id),
        1,
      );
    }
  }

  /**
   * The held visit goes to another service's line, keeping its letter and number, and its
   * place as the organization chose (decision 118): by its first arrival in the branch, or
   * first in the new line.
   */
  private async transfer(
    trx: Db,
    held: VisitRow,
    serviceId: string | null,
    counterId: string,
    by: string,
    now: Date,
  ): Promise<VisitRow> {
    if (!serviceId) throw new AppError(400, 'INVALID_ID', 'Say which service to transfer to.');
    if (serviceId === held.service_id) {
      throw notActionable('This visitor is already in this service: choose another one.');
    }
    await assertActiveService(trx, held.organization_id, serviceId);
    const served = await trx
      .selectFrom('counter_services as cs')
      .innerJoin('counters as c', 'c.id', 'cs.counter_id')
      .select('c.id')
      .where('cs.service_id', '=', serviceId)
      .where('c.retired_at', 'is', null)
      .executeTakeFirst();
    if (!served) {
      throw new AppError(
        409,
        'SERVICE_NOT_AT_COUNTER',
        'No counter serves this service: the visitor would wait for nobody.',
      );
    }
    const { queue_transfer_place: place } = await trx
      .selectFrom('organizations')
      .select('queue_transfer_place')
      .where('id', '=', held.organization_id)
      .executeTakeFirstOrThrow();
    const left = await transitionVisit(
      trx,
      held,
      {
        from: [held.state],
        to: 'transferred',
        kind: 'transferred_out',
        set: { ended_at: now },
        counterId,
        byUser: by,
      },
      now,
    );
    if (!left) throw notActionable('This visitor moved meanwhile.');
    return insertVisit(
      trx,
      {
        organizationId: held.organization_id,
        serviceId,
        date: held.visit_date,
        source: held.source,
        bookingId: held.booking_id,
        customerName: held.customer_name,
        phone: held.phone,
        locale: held.locale,
        slotStart: null,
        arrivedAt: held.arrived_at,
        queuedAt: now,
        placeAt: place === 'arrival' ? held.arrived_at : null,
        ahead: place === 'front',
        clientAddress: held.client_address,
        createdBy: by,
        keep: { letter: held.letter, number: held.number, from: held.id },
      },
      now,
    );
  }
}
