/**
 * The queue's server core: visits entering (check-in, staff walk-in, the public
 * join page), the admin's settings, counters and letters; the counter actions are
 * counter-actions.ts's, undo and a no-show put back counter-undo.ts's. Every change of the
 * waiting line runs in one transaction under the organization's queue lock (a counter's acts
 * on the visit it holds, under the counter's own lock), writes a visit_events row per
 * transition, queues the SMS it causes and announces itself (notifyQueueChanged) at commit.
 */

import type {
  Counter,
  CounterAction,
  CounterActionResponse,
  JoinInfoResponse,
  JoinResponse,
  QueueSettings,
  QueueSettingsRequest,
  QueueTodayResponse,
  QueueVisit,
  VisitTurn,
} from '@qless/contract';
import type { AuthContext } from '../../core/access/auth-guard.js';
import { findListedOrganization } from '../../core/organizations.repository.js';
import { AppError } from '../../errors.js';
import { assertActiveService, CounterActions, counterOf, settle } from './counter-actions.js';
import { putNoShowBack, undoLast } from './counter-undo.js';
import { counterView, createCounter, listCounters, updateCounter } from './counters.repository.js';
import { LineSettler } from './line-settler.js';
import { clearSelfJoins } from './queue-clear.js';
import { loadQueueDay } from './queue-day.js';
import type { QueueServiceDeps } from './queue-deps.js';
import { enterQueue } from './queue-entry.js';
import { notifyQueueChanged } from './queue-events.js';
import { isQueueOpen, joinInfoOf } from './queue-join.js';
import { currentOf, leaveLine } from './queue-leave.js';
import { plannedLetters } from './queue-letters.js';
import { visitTurn, visitView, visitViews } from './queue-views.js';
import { assertSelfJoinRoom } from './self-join-ceiling.js';
import { findVisit, inTransaction, lockCounter, lockQueue } from './visits.repository.js';

/** Today's ended visits shown on the staff screen (latest first). */
const ENDED_SHOWN = 200;

export type { QueueServiceDeps } from './queue-deps.js';
export { enterBookingVisit, enterQueue, moveBookingVisitArrival } from './queue-entry.js';

export class QueueService {
  private readonly counters: CounterActions;
  /** The line's SMS after Call next, decided after the answer (line-settler.ts). */
  readonly lines: LineSettler;

  constructor(private readonly deps: QueueServiceDeps) {
    this.lines = new LineSettler(deps);
    this.counters = new CounterActions(deps, this.lines);
  }

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
    const planned = plannedLetters([...day.services.values()]);
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
        .map((s) => ({
          service_id: s.id,
          name: s.name,
          name_fr: s.name_fr,
          letter: s.letter,
          planned_letter: planned.get(s.id) ?? null,
        })),
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

  /** Today's joins from the poster never called leave the line at once (queue-clear.ts). */
  clearSelfJoins(
    organizationId: string,
    userId: string,
    input: { within_minutes?: number | undefined; service_id?: string | undefined },
  ): Promise<number> {
    return clearSelfJoins(
      this.deps.db,
      {
        organizationId,
        userId,
        withinMinutes: input.within_minutes ?? null,
        serviceId: input.service_id ?? null,
      },
      this.now(),
      this.deps.turns,
    );
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
      await assertActiveService(trx, organizationId, input.service_id);
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

  // ------------------------------------------------------------------ the public join page

  private async listedOrganization(organizationId: string) {
    const org = await findListedOrganization(this.deps.db, organizationId);
    if (!org) throw new AppError(404, 'ORGANIZATION_NOT_FOUND', 'No such organization.');
    return org;
  }

  async joinInfo(organizationId: string): Promise<JoinInfoResponse> {
    const org = await this.listedOrganization(organizationId);
    const now = this.now();
    return joinInfoOf(
      this.deps.db,
      org,
      await loadQueueDay(this.deps.db, organizationId, now),
      now,
    );
  }

  /** 404 unless listed, 403 JOIN_DISABLED if off, 409 QUEUE_CLOSED; needs the hall's code? */
  async assertJoinable(organizationId: string): Promise<{ codeRequired: boolean }> {
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
    return { codeRequired: org.queue_join_code };
  }

  /**
   * A walk-in joins by themself. The caller counted the request against the join limits
   * first (queue.routes.ts); refusals: 403 JOIN_DISABLED, 409 QUEUE_CLOSED, and the
   * organization's ceilings under its queue lock: 429 QUEUE_JOINS_BUSY, 409
   * SELF_JOIN_LINE_FULL (SelfJoinRefused).
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
      await assertActiveService(trx, organizationId, input.service_id);
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
        (date) =>
          assertSelfJoinRoom(trx, organizationId, input.service_id, date, now, this.deps.selfJoins),
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

  async updateSettings(organizationId: string, s: QueueSettingsRequest): Promise<QueueSettings> {
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
          ...(s.join_code !== undefined ? { queue_join_code: s.join_code } : {}),
          ...(s.transfer_place ? { queue_transfer_place: s.transfer_place } : {}),
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
      const counter = await counterOf(trx, auth, counterId);
      await lockCounter(trx, counterId);
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

  counterState(
    auth: AuthContext,
    counterId: string,
    state: 'open' | 'paused' | 'closed',
  ): Promise<CounterActionResponse> {
    return this.counters.counterState(auth, counterId, state);
  }

  act(
    auth: AuthContext,
    counterId: string,
    action: CounterAction,
    transferTo: string | null = null,
  ): Promise<CounterActionResponse> {
    return this.counters.act(auth, counterId, action, transferTo);
  }

  undo(auth: AuthContext, counterId: string): Promise<CounterActionResponse> {
    return undoLast(this.deps, auth, counterId);
  }

  putBack(auth: AuthContext, visitId: string): Promise<QueueVisit> {
    return putNoShowBack(this.deps, auth, visitId);
  }
}
