/**
 * The queue's server core (issue 19): visits entering (check-in, staff walk-in, the public
 * join page), the admin's settings, counters and letters, and the counter actions. Every
 * change of an organization's queue runs in one transaction under the organization's queue
 * lock, writes a visit_events row per transition, queues the SMS it causes and announces
 * itself (notifyQueueChanged) at commit.
 */
import {
  type Counter,
  type CounterAction,
  type CounterActionResponse,
  dayOfWeek,
  type JoinInfoResponse,
  type JoinResponse,
  type QueueSettings,
  type QueueTodayResponse,
  type QueueVisit,
  type VisitTurn,
  zonedInstant,
  zonedNow,
} from '@qless/contract';
import type { Clock } from '../../clock.js';
import type { Db, VisitRow } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import { AppError } from '../../errors.js';
import { type AuthContext, assertOrganizationAccess } from '../auth/auth-guard.js';
import type { FeedbackRequests } from '../feedback/feedback-messages.js';
import {
  findListedOrganization,
  isClosureDate,
  isOpenOn,
  placeLabel,
} from '../organizations/organizations.repository.js';
import { todayOf } from '../tickets/ticket-check.js';
import {
  counterView,
  createCounter,
  findCounter,
  listCounters,
  setCounterState,
  updateCounter,
} from './counters.repository.js';
import { estimateForNewcomer, loadQueueDay, type QueueDay, servedNow } from './queue-day.js';
import { notifyQueueChanged } from './queue-events.js';
import { currentOf, leaveLine } from './queue-leave.js';
import { nextForCounter } from './queue-order.js';
import { counterOfDay, visitTurn, visitView, visitViews } from './queue-views.js';
import type { TurnMessages } from './turn-messages.js';
import {
  findVisit,
  heldBy,
  insertVisit,
  inTransaction,
  lockQueue,
  type NewVisit,
  transitionVisit,
} from './visits.repository.js';

/** Today's ended visits shown on the staff screen (latest first). */
const ENDED_SHOWN = 200;

const notActionable = (message: string) => new AppError(409, 'VISIT_NOT_ACTIONABLE', message);
const idle = () =>
  new AppError(409, 'COUNTER_IDLE', 'This counter holds nobody: call the next person first.');

/**
 * After a change (same transaction): the day as it now stands, and the "you are N-th" SMS it
 * calls for. Returns the day for the answer.
 */
async function settle(
  trx: Db,
  organizationId: string,
  now: Date,
  turns: TurnMessages | null,
): Promise<QueueDay> {
  await notifyQueueChanged(trx, organizationId);
  const day = await loadQueueDay(trx, organizationId, now);
  if (turns) await turns.afterChange(trx, day);
  return day;
}

/**
 * After a change to a visit a counter holds (start, recall, done, no-show): nobody entered
 * or left the waiting line, so no place moved and no "you are N-th" SMS is due; the day is
 * read without its line (see loadQueueDay).
 */
async function settleHeld(trx: Db, organizationId: string, now: Date): Promise<QueueDay> {
  await notifyQueueChanged(trx, organizationId);
  return loadQueueDay(trx, organizationId, now, { line: false });
}

/**
 * A visit enters its organization's line (under the queue lock) with the next number of its
 * service's letter; the day read after it. `date` is the organization's today.
 */
export async function enterQueue(
  trx: Db,
  visit: Omit<NewVisit, 'date'>,
  now: Date,
  turns: TurnMessages | null,
): Promise<{ visit: VisitRow; day: QueueDay }> {
  await lockQueue(trx, visit.organizationId);
  const org = await trx
    .selectFrom('organizations')
    .select('time_zone')
    .where('id', '=', visit.organizationId)
    .executeTakeFirstOrThrow();
  const row = await insertVisit(trx, { ...visit, date: todayOf(org, now) }, now);
  const day = await settle(trx, visit.organizationId, now, turns);
  return { visit: row, day };
}

/**
 * A booking just checked in (same transaction as the check-in) enters the queue: source
 * 'booking', its slot's start as an instant of the organization's zone, arrived at the scan.
 * Once per booking; a booking of another day than the organization's today (an offline scan
 * synced after midnight) enters no queue.
 */
export async function enterBookingVisit(
  trx: Db,
  bookingId: string,
  arrivedAt: Date,
  now: Date,
  turns: TurnMessages | null,
): Promise<VisitRow | null> {
  const b = await trx
    .selectFrom('bookings as b')
    .innerJoin('slots as sl', 'sl.id', 'b.slot_id')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .select([
      'b.id',
      'b.organization_id',
      'b.service_id',
      'b.booking_date',
      'b.cus_name',
      'b.phone_number',
      'b.locale',
      'b.checked_in_by',
      'sl.start_time',
      'o.time_zone',
    ])
    .where('b.id', '=', bookingId)
    .executeTakeFirst();
  if (!b || b.booking_date !== todayOf(b, now)) return null;
  const existing = await trx
    .selectFrom('visits')
    .select('id')
    .where('booking_id', '=', bookingId)
    .where('transferred_from', 'is', null)
    .executeTakeFirst();
  if (existing) return null;
  const { visit } = await enterQueue(
    trx,
    {
      organizationId: b.organization_id,
      serviceId: b.service_id,
      source: 'booking',
      bookingId: b.id,
      customerName: b.cus_name,
      phone: b.phone_number || null,
      locale: b.locale,
      slotStart: zonedInstant(b.booking_date, timeToMinutes(b.start_time), b.time_zone),
      arrivedAt,
      queuedAt: arrivedAt,
      createdBy: b.checked_in_by,
    },
    now,
    turns,
  );
  return visit;
}

/**
 * An offline scan moved a booking's check-in earlier (the first real scan wins): its visit,
 * while still waiting, arrived then too.
 */
export async function moveBookingVisitArrival(
  trx: Db,
  bookingId: string,
  arrivedAt: Date,
  now: Date,
): Promise<void> {
  const visit = await trx
    .selectFrom('visits')
    .select(['id', 'organization_id'])
    .where('booking_id', '=', bookingId)
    .where('transferred_from', 'is', null)
    .where('state', '=', 'waiting')
    .executeTakeFirst();
  if (!visit) return;
  await lockQueue(trx, visit.organization_id);
  await trx
    .updateTable('visits')
    .set({ arrived_at: arrivedAt, queued_at: arrivedAt, updated_at: now })
    .where('id', '=', visit.id)
    .where('state', '=', 'waiting')
    .execute();
  await notifyQueueChanged(trx, visit.organization_id);
}

/** Open now: a day it opens, not a closure, between its opening and closing time (its zone). */
export async function isQueueOpen(
  db: Db,
  org: { id: string; time_zone: string; open_days: number; start_time: string; end_time: string },
  now: Date,
): Promise<boolean> {
  const local = zonedNow(org.time_zone, now);
  if (!isOpenOn(org.open_days, dayOfWeek(local.date))) return false;
  if (local.minutes < timeToMinutes(org.start_time)) return false;
  if (local.minutes >= timeToMinutes(org.end_time)) return false;
  return !(await isClosureDate(db, org.id, local.date));
}

export interface QueueServiceDeps {
  db: Db;
  clock: Clock;
  turns: TurnMessages;
  /** The SMS asking for a word once a visit is done (issue 20); null: none is sent. */
  feedback?: FeedbackRequests | null;
}

export class QueueService {
  constructor(private readonly deps: QueueServiceDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  // ------------------------------------------------------------------ the staff screen

  async today(organizationId: string): Promise<QueueTodayResponse> {
    const { db } = this.deps;
    const now = this.now();
    const day = await loadQueueDay(db, organizationId, now);
    const ended = await db
      .selectFrom('visits')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('visit_date', '=', day.date)
      .where('state', 'not in', ['waiting', 'called', 'serving'])
      .orderBy('ended_at', 'desc')
      .orderBy('id')
      .limit(ENDED_SHOWN)
      .execute();
    const held = [...day.held].sort(
      (a, b) => (a.called_at?.getTime() ?? 0) - (b.called_at?.getTime() ?? 0),
    );
    return {
      organization: {
        organization_id: day.organization.id,
        name: day.organization.name,
        time_zone: day.organization.time_zone,
      },
      date: day.date,
      server_time: now.toISOString(),
      settings: day.settings,
      services: [...day.services.values()]
        .filter((s) => s.active)
        .map((s) => ({ service_id: s.id, name: s.name, name_fr: s.name_fr, letter: s.letter })),
      counters: day.counters.map((c) => ({
        counter_id: c.id,
        name: c.name,
        service_ids: c.service_ids,
        state: c.state,
        current_visit_id: c.current_visit_id,
      })),
      visits: await visitViews(db, day, [...held, ...day.waiting, ...ended]),
    };
  }

  /** A walk-in added by staff at the counter. */
  async walkIn(
    organizationId: string,
    userId: string,
    input: {
      service_id: string;
      name: string;
      phone: string | null;
      locale?: 'en' | 'fr' | undefined;
    },
  ): Promise<QueueVisit> {
    const now = this.now();
    return inTransaction(this.deps.db, async (trx) => {
      await this.assertActiveService(trx, organizationId, input.service_id);
      const { visit, day } = await enterQueue(
        trx,
        {
          organizationId,
          serviceId: input.service_id,
          source: 'staff',
          customerName: input.name,
          phone: input.phone,
          locale: input.locale ?? 'fr',
          arrivedAt: now,
          queuedAt: now,
          createdBy: userId,
        },
        now,
        this.deps.turns,
      );
      return visitView(trx, day, (await findVisit(trx, visit.id)) ?? visit);
    });
  }

  private async assertActiveService(db: Db, organizationId: string, serviceId: string) {
    const service = await db
      .selectFrom('services')
      .select(['id', 'active'])
      .where('id', '=', serviceId)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    if (!service?.active) {
      throw new AppError(404, 'SERVICE_NOT_FOUND', 'No such service in this organization.');
    }
  }

  // ------------------------------------------------------------------ the public join page

  private async listedOrganization(organizationId: string) {
    const org = await findListedOrganization(this.deps.db, organizationId);
    if (!org) throw new AppError(404, 'ORGANIZATION_NOT_FOUND', 'No such organization.');
    return org;
  }

  async joinInfo(organizationId: string): Promise<JoinInfoResponse> {
    const org = await this.listedOrganization(organizationId);
    const now = this.now();
    const day = await loadQueueDay(this.deps.db, organizationId, now);
    const waiting = new Map<string, number>();
    for (const v of day.waiting) waiting.set(v.service_id, (waiting.get(v.service_id) ?? 0) + 1);
    return {
      organization: { organization_id: org.id, name: placeLabel(org.name, org.branch_name) },
      enabled: org.queue_join_enabled,
      open: await isQueueOpen(this.deps.db, org, now),
      services: [...day.services.values()]
        .filter((s) => s.active)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((s) => {
          const ahead = waiting.get(s.id) ?? 0;
          return {
            service_id: s.id,
            name: s.name,
            name_fr: s.name_fr,
            waiting: ahead,
            // Someone joining now: the line played forward with them last (decision 020).
            estimate: estimateForNewcomer(day, s.id),
            counters_open: servedNow(day, s.id),
          };
        }),
    };
  }

  /** 404 unless listed, 403 JOIN_DISABLED unless switched on, 409 QUEUE_CLOSED unless open now. */
  async assertJoinable(organizationId: string): Promise<void> {
    const org = await this.listedOrganization(organizationId);
    if (!org.queue_join_enabled) {
      throw new AppError(
        403,
        'JOIN_DISABLED',
        'This organization does not take visitors from its page.',
      );
    }
    if (!(await isQueueOpen(this.deps.db, org, this.now()))) {
      throw new AppError(
        409,
        'QUEUE_CLOSED',
        'The queue is closed now. Come back during opening hours.',
      );
    }
  }

  /**
   * A walk-in joins by themself. The caller counted the request against the join limits
   * first (queue.routes.ts); refusals: 403 JOIN_DISABLED, 409 QUEUE_CLOSED.
   */
  async join(
    organizationId: string,
    input: {
      service_id: string;
      name: string;
      phone: string | null;
      locale?: 'en' | 'fr' | undefined;
    },
    clientAddress: string,
  ): Promise<JoinResponse> {
    await this.assertJoinable(organizationId);
    const now = this.now();
    return inTransaction(this.deps.db, async (trx) => {
      await this.assertActiveService(trx, organizationId, input.service_id);
      const { visit, day } = await enterQueue(
        trx,
        {
          organizationId,
          serviceId: input.service_id,
          source: 'self',
          customerName: input.name,
          phone: input.phone,
          locale: input.locale ?? 'fr',
          arrivedAt: now,
          queuedAt: now,
          clientAddress,
        },
        now,
        this.deps.turns,
      );
      const fresh = (await findVisit(trx, visit.id)) ?? visit;
      return { turn: visitTurn(day, fresh), key: this.deps.turns.keyFor(visit.id) };
    });
  }

  /**
   * The feedback link's token of a visit the key opened, once it ended done (where a
   * transfer led): the visit-over page links to the feedback page with it.
   */
  async feedbackToken(visitId: string): Promise<string | null> {
    const visit = await currentOf(this.deps.db, visitId);
    return visit ? (this.deps.feedback?.tokenOf(visit, this.now()) ?? null) : null;
  }

  /** The visitor leaves the line from their own page (the route checked the key). */
  leave(visitId: string): Promise<VisitTurn> {
    return leaveLine(this.deps.db, visitId, this.now(), this.deps.turns);
  }

  // ------------------------------------------------------------------ the admin's

  async settings(organizationId: string): Promise<QueueSettings> {
    return (await loadQueueDay(this.deps.db, organizationId, this.now())).settings;
  }

  async updateSettings(organizationId: string, s: QueueSettings): Promise<QueueSettings> {
    const now = this.now();
    await inTransaction(this.deps.db, async (trx) => {
      await lockQueue(trx, organizationId);
      const updated = await trx
        .updateTable('organizations')
        .set({
          queue_grace_early_minutes: s.grace_early_minutes,
          queue_grace_late_minutes: s.grace_late_minutes,
          queue_notify_position: s.notify_position,
          queue_max_recalls: s.max_recalls,
          queue_join_enabled: s.join_enabled,
          updated_at: now,
        })
        .where('id', '=', organizationId)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) {
        throw new AppError(404, 'ORGANIZATION_NOT_FOUND', 'No such organization.');
      }
      // The order (grace) and who is told (notify position) may have changed.
      await settle(trx, organizationId, now, this.deps.turns);
    });
    return this.settings(organizationId);
  }

  listCounters(organizationId: string): Promise<Counter[]> {
    return listCounters(this.deps.db, organizationId);
  }

  async createCounter(
    organizationId: string,
    input: { name: string; service_ids: string[] },
  ): Promise<Counter> {
    const now = this.now();
    return inTransaction(this.deps.db, async (trx) => {
      await lockQueue(trx, organizationId);
      const row = await createCounter(trx, organizationId, input, now);
      await notifyQueueChanged(trx, organizationId);
      return counterView(trx, row);
    });
  }

  async updateCounter(
    auth: AuthContext,
    counterId: string,
    patch: {
      name?: string | undefined;
      service_ids?: string[] | undefined;
      active?: boolean | undefined;
    },
  ): Promise<Counter> {
    const now = this.now();
    return inTransaction(this.deps.db, async (trx) => {
      const counter = await this.counterOf(trx, auth, counterId);
      await lockQueue(trx, counter.organization_id);
      const row = await updateCounter(trx, counter, patch, now);
      await settle(trx, counter.organization_id, now, this.deps.turns);
      return counterView(trx, row);
    });
  }

  /** The admin chooses a service's letter (unique in the organization). */
  async setLetter(
    organizationId: string,
    serviceId: string,
    letter: string,
  ): Promise<{ service_id: string; letter: string }> {
    const now = this.now();
    return inTransaction(this.deps.db, async (trx) => {
      await lockQueue(trx, organizationId);
      const service = await trx
        .selectFrom('services')
        .select(['id', 'queue_letter'])
        .where('id', '=', serviceId)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst();
      if (!service)
        throw new AppError(404, 'SERVICE_NOT_FOUND', 'No such service in this organization.');
      const taken = await trx
        .selectFrom('services')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('queue_letter', '=', letter)
        .where('id', '<>', serviceId)
        .executeTakeFirst();
      if (taken) {
        throw new AppError(
          409,
          'INVALID_QUEUE_SETTINGS',
          `Another service already has the letter ${letter}.`,
        );
      }
      await trx
        .updateTable('services')
        .set({ queue_letter: letter, updated_at: now })
        .where('id', '=', serviceId)
        .execute();
      await notifyQueueChanged(trx, organizationId);
      return { service_id: serviceId, letter };
    });
  }

  // ------------------------------------------------------------------ the counter

  /** A counter still in use, of an organization the caller may act on. */
  private async counterOf(db: Db, auth: AuthContext, counterId: string) {
    const counter = await findCounter(db, counterId);
    if (!counter || counter.retired_at) {
      throw new AppError(404, 'COUNTER_NOT_FOUND', 'No such counter.');
    }
    assertOrganizationAccess(auth, counter.organization_id);
    return counter;
  }

  async counterState(
    auth: AuthContext,
    counterId: string,
    state: 'open' | 'paused' | 'closed',
  ): Promise<CounterActionResponse> {
    const now = this.now();
    return inTransaction(this.deps.db, async (trx) => {
      const before = await this.counterOf(trx, auth, counterId);
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
   * `visit: null` (the screen says so; a serving visit was still finished).
   */
  async act(
    auth: AuthContext,
    counterId: string,
    action: CounterAction,
    transferTo: string | null = null,
  ): Promise<CounterActionResponse> {
    const now = this.now();
    const by = auth.user.id;
    return inTransaction(this.deps.db, async (trx) => {
      const first = await this.counterOf(trx, auth, counterId);
      const orgId = first.organization_id;
      await lockQueue(trx, orgId);
      // Read again under the lock: a clerk may have closed it meanwhile.
      const counter = (await findCounter(trx, counterId)) ?? first;
      const held = (await heldBy(trx, counterId)) ?? null;
      let touched: VisitRow | null = null;
      let called: VisitRow | null = null;
      // The visit this action ended done, if any (done, or call next while serving).
      let finished: VisitRow | null = null;
      const move = (visit: VisitRow, change: Parameters<typeof transitionVisit>[2]) =>
        transitionVisit(trx, visit, change, now);
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
          break;
        }
        case 'recall': {
          if (!held) throw idle();
          if (held.state !== 'called') {
            throw notActionable(
              'This visitor is already being served: recall is for a called visitor.',
            );
          }
          const org = await trx
            .selectFrom('organizations')
            .select('queue_max_recalls')
            .where('id', '=', orgId)
            .executeTakeFirstOrThrow();
          touched =
            held.recalls >= org.queue_max_recalls
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
          break;
        case 'no_show':
          touched = await end(
            'called',
            'no_show',
            'This visitor came and is being served: mark them done instead.',
          );
          break;
        case 'transfer': {
          if (!held) throw idle();
          touched = await this.transfer(trx, held, transferTo, counterId, by, now);
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
      return { counter: counterView_, visit };
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
        .select(['id', 'service_id', 'slot_start', 'arrived_at', 'queued_at'])
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

  /** The held visit goes to another service's line, keeping its letter and number. */
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
    await this.assertActiveService(trx, held.organization_id, serviceId);
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
        clientAddress: held.client_address,
        createdBy: by,
        keep: { letter: held.letter, number: held.number, from: held.id },
      },
      now,
    );
  }
}
