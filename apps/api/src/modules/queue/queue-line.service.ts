/**
 * The waiting line: what the staff screen shows, visitors entering it (a staff walk-in, the
 * public join page, with its ceilings), and leaving it from their own page. Check-in's entry
 * of a booked visitor is queue-entry.ts's. Every change runs under the organization's queue
 * lock, writes its visit_events row, queues the SMS it causes and announces itself at commit.
 */
import type {
  JoinInfoResponse,
  JoinResponse,
  KioskInfo,
  KioskPaper,
  PriorityCategory,
  QueueTodayResponse,
  QueueVisit,
  VisitSlip,
  VisitTurn,
} from '@qless/contract';
import { todayOf } from '../../core/local-time.js';
import {
  findListedOrganization,
  requireOrganization,
} from '../../core/organizations.repository.js';
import type { Db, VisitRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { assertActiveService } from './counter-actions.js';
import { countersCallNext } from './counter-orders.js';
import { clearSelfJoins } from './queue-clear.js';
import { loadQueueDay, type QueueDay } from './queue-day.js';
import type { QueueServiceDeps } from './queue-deps.js';
import { enterQueue } from './queue-entry.js';
import { isQueueOpen, joinInfoOf } from './queue-join.js';
import { currentOf, leaveLine } from './queue-leave.js';
import { plannedLetters } from './queue-letters.js';
import { visitTurn, visitView, visitViews } from './queue-views.js';
import { assertSelfJoinRoom } from './self-join-ceiling.js';
import { visitSlip } from './visit-slip.js';
import { findVisit, inTransaction } from './visits.repository.js';
import { ALREADY_ISSUED, assertPhoneNotInLine, visitOfRequest } from './walk-in-checks.js';

/** A visitor who walked in, as the counter's form and the join page give them. */
interface Walker {
  service_id: string;
  name: string;
  phone: string | null;
  /** Asked for the turn by WhatsApp when giving the number (decision 144). */
  whatsapp?: boolean | undefined;
  locale?: 'en' | 'fr' | undefined;
  /** Staff only (decision 138): a category the organization serves first. */
  priority_category?: PriorityCategory | null | undefined;
}

/** Today's ended visits shown on the staff screen (latest first). */
const ENDED_SHOWN = 200;

export class QueueLine {
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
    const planned = plannedLetters([...day.services.values()]);
    const callsNext = await countersCallNext(db, day);
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
        help_service_ids: c.help_service_ids,
        state: c.state,
        current_visit_id: c.current_visit_id,
        calls_next: callsNext.get(c.id) ?? [],
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
  async walkIn(organizationId: string, userId: string, input: Walker): Promise<QueueVisit> {
    const now = this.now();
    return inTransaction(this.deps.db, async (trx) => {
      const { visit, day } = await this.enter(trx, organizationId, input, now, {
        source: 'staff',
        createdBy: userId,
      });
      return visitView(trx, day, (await findVisit(trx, visit.id)) ?? visit);
    });
  }

  /**
   * A visitor who walked in enters the line now, at the counter (`staff`), by themself from
   * the poster (`self`) or at the kiosk (`kiosk`), with the next number of the service's letter (enterQueue, under the queue lock);
   * `admit` may refuse them under that lock (the join page's ceilings).
   */
  private async enter(
    trx: Db,
    organizationId: string,
    input: Walker,
    now: Date,
    by:
      | { source: 'staff'; createdBy: string }
      | { source: 'self'; clientAddress: string }
      | { source: 'kiosk'; clientAddress: string; requestId: string }
      | { source: 'sms' },
    admit?: (date: string) => Promise<void>,
  ) {
    await assertActiveService(trx, organizationId, input.service_id);
    return enterQueue(
      trx,
      {
        organizationId,
        serviceId: input.service_id,
        customerName: input.name,
        phone: input.phone,
        whatsapp: input.whatsapp,
        locale: input.locale ?? 'fr',
        arrivedAt: now,
        queuedAt: now,
        // Staff and the kiosk's question may give one (decision 138); never the join page or SMS.
        priorityCategory:
          by.source === 'staff' || by.source === 'kiosk' ? (input.priority_category ?? null) : null,
        ...by,
      },
      now,
      this.deps.turns,
      admit,
    );
  }

  // ------------------------------------------------------------------ the public join page

  private async listedOrganization(organizationId: string) {
    const org = await findListedOrganization(this.deps.db, organizationId);
    if (!org) throw new AppError(404, 'ORGANIZATION_NOT_FOUND', 'No such organization.');
    return org;
  }

  async joinInfo(organizationId: string): Promise<Omit<JoinInfoResponse, 'whatsapp'>> {
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
    await this.assertOpen(org);
    return { codeRequired: org.queue_join_code };
  }

  private async assertOpen(org: Parameters<typeof isQueueOpen>[1]): Promise<void> {
    if (!(await isQueueOpen(this.deps.db, org, this.now()))) {
      throw new AppError(
        409,
        'QUEUE_CLOSED',
        'The queue is closed now. Come back during opening hours.',
      );
    }
  }

  // ------------------------------------------------------------------ the kiosk (decision 135)

  /** What the kiosk offers now: the branch's services and their lines; no visitor's data. */
  async kioskInfo(organizationId: string, paper: KioskPaper): Promise<KioskInfo> {
    const org = await requireOrganization(this.deps.db, organizationId);
    const now = this.now();
    const info = await joinInfoOf(
      this.deps.db,
      org,
      await loadQueueDay(this.deps.db, organizationId, now),
      now,
    );
    return {
      organization_name: info.organization.name,
      open: info.open,
      paper,
      server_time: now.toISOString(),
      services: info.services,
      priority_categories: org.queue_priority_categories,
      premium_label: org.queue_premium_label,
    };
  }

  /**
   * A visitor takes a number at the kiosk: 409 QUEUE_CLOSED outside opening hours, 409
   * PHONE_ALREADY_IN_LINE for a phone with an open visit in this branch today (no one takes a
   * number for a stranger's phone twice). The same press sent again (its request id) answers
   * the slip already issued: a kiosk that lost an answer in a network blink asks again safely.
   */
  async issueAtKiosk(
    organizationId: string,
    input: {
      service_id: string;
      phone: string | null;
      locale?: 'en' | 'fr' | undefined;
      priority_category?: PriorityCategory | null | undefined;
    },
    press: { requestId: string; clientAddress: string },
  ): Promise<VisitSlip> {
    const { db } = this.deps;
    // The same press again first: a number issued is answered even past closing time.
    const issued = await this.issuedSlip(organizationId, press.requestId);
    if (issued) return issued;
    await this.assertOpen(await requireOrganization(db, organizationId));
    const now = this.now();
    try {
      return await inTransaction(db, async (trx) => {
        const { visit, day } = await this.enter(
          trx,
          organizationId,
          {
            service_id: input.service_id,
            name: '',
            phone: input.phone,
            locale: input.locale,
            priority_category: input.priority_category,
          },
          now,
          { source: 'kiosk', ...press },
          async (date) => {
            // Under the queue lock: a press sent twice at once enters once.
            if (await visitOfRequest(trx, organizationId, press.requestId)) throw ALREADY_ISSUED;
            if (input.phone) await assertPhoneNotInLine(trx, organizationId, date, input.phone);
          },
        );
        return visitSlip(trx, day, (await findVisit(trx, visit.id)) ?? visit, this.deps.turns);
      });
    } catch (error) {
      if (error !== ALREADY_ISSUED) throw error;
      const again = await visitOfRequest(db, organizationId, press.requestId);
      if (!again) throw error;
      return this.slip(organizationId, again.id);
    }
  }

  /**
   * A visitor joins by SMS from a basic phone (decision 136): 409 QUEUE_CLOSED outside opening
   * hours, 409 PHONE_ALREADY_IN_LINE, and the join page's ceilings (joins by SMS count with
   * them), under the queue lock.
   */
  async joinBySms(
    organizationId: string,
    input: { service_id: string; phone: string; locale: 'en' | 'fr' },
  ): Promise<{ visit: VisitRow; day: QueueDay }> {
    const { db } = this.deps;
    await this.assertOpen(await requireOrganization(db, organizationId));
    const now = this.now();
    return inTransaction(db, async (trx) => {
      const { visit, day } = await this.enter(
        trx,
        organizationId,
        { service_id: input.service_id, name: '', phone: input.phone, locale: input.locale },
        now,
        { source: 'sms' },
        async (date) => {
          await assertPhoneNotInLine(trx, organizationId, date, input.phone);
          await assertSelfJoinRoom(
            trx,
            organizationId,
            input.service_id,
            date,
            now,
            this.deps.selfJoins,
          );
        },
      );
      return { visit: (await findVisit(trx, visit.id)) ?? visit, day };
    });
  }

  /** 409 QUEUE_CLOSED, 409 PHONE_ALREADY_IN_LINE: checked before a text's join is counted. */
  async assertSmsJoinable(organizationId: string, phone: string): Promise<void> {
    const { db } = this.deps;
    const org = await requireOrganization(db, organizationId);
    await this.assertOpen(org);
    await assertPhoneNotInLine(db, organizationId, todayOf(org, this.now()), phone);
  }

  /** The slip of a kiosk's press already issued, or null. */
  async issuedSlip(organizationId: string, requestId: string): Promise<VisitSlip | null> {
    const issued = await visitOfRequest(this.deps.db, organizationId, requestId);
    return issued ? this.slip(organizationId, issued.id) : null;
  }

  /** A walk-in's slip, printed again (the counter's "Print ticket"): 404 if not this branch's. */
  async slip(organizationId: string, visitId: string): Promise<VisitSlip> {
    const { db } = this.deps;
    const visit = await findVisit(db, visitId);
    if (!visit || visit.organization_id !== organizationId) {
      throw new AppError(404, 'VISIT_NOT_FOUND', 'No such visit.');
    }
    const day = await loadQueueDay(db, organizationId, this.now());
    return visitSlip(db, day, visit, this.deps.turns);
  }

  /**
   * A walk-in joins by themself. The caller counted the request against the join limits
   * first (queue.routes.ts); refusals: 403 JOIN_DISABLED, 409 QUEUE_CLOSED, and the
   * organization's ceilings under its queue lock: 429 QUEUE_JOINS_BUSY, 409
   * SELF_JOIN_LINE_FULL (SelfJoinRefused).
   */
  async join(organizationId: string, input: Walker, clientAddress: string): Promise<JoinResponse> {
    await this.assertJoinable(organizationId);
    const now = this.now();
    return inTransaction(this.deps.db, async (trx) => {
      const { visit, day } = await this.enter(
        trx,
        organizationId,
        input,
        now,
        { source: 'self', clientAddress },
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
}
