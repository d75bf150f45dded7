import { localizedText, zonedNow } from '@qless/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { DB, Db, OutboxRow } from '../../db/schema.js';
import { PeriodicSweep } from '../../periodic.js';
import { queueCustomerMessage } from '../messages/messages.module.js';
import {
  endEntry,
  findEntry,
  listDaysToSettle,
  lockDay,
  markOffered,
  readBookings,
  readDay,
  readLine,
  readSlots,
} from './waitlist.repository.js';
import { OFFER_HOURS, planDay } from './waitlist-plan.js';
import { offerLink, offerText } from './waitlist-text.js';

export const OFFER_KIND = 'waitlist_offer' as const;
const OFFER_KEY = /^waitlist:([0-9a-f-]{36}):offer$/;

export interface DayOutcome {
  offered: number;
  ended: number;
}

export interface WaitlistSweepResult extends DayOutcome {
  days: number;
}

/** Days read per page of a sweep (a sweep settles every day with a line that may change). */
const DAYS_PER_SWEEP = 200;

/**
 * The waitlist's offers (decision 023). `settleDay` brings one service-day up to date under
 * its lock: entries whose number paid for a seat become booked, offers past their hold
 * lapse, offers whose seat someone else paid for first are missed, a day that can no longer
 * be booked expires its line, and each seat that is free and not yet offered is offered to
 * the next entry waiting, by one SMS queued in the same transaction. It runs in the
 * transaction that freed a seat (a cancellation, a move away) and from a sweep on every
 * process, which catches what frees a seat without telling (a hold that lapsed, a payment
 * that failed) and the offers whose hold ran out. Its state is the database's: a restart
 * loses nothing.
 */
export class WaitlistOffers {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; publicOrigin: string }) {}

  /** Settles one service-day in the caller's transaction (after the change it reports). */
  async settleDay(trx: Db, serviceId: string, date: string, now: Date): Promise<DayOutcome> {
    const outcome: DayOutcome = { offered: 0, ended: 0 };
    await lockDay(trx, serviceId, date);
    const entries = await readLine(trx, serviceId, date);
    if (entries.length === 0) return outcome;
    const day = await readDay(trx, serviceId, date);
    if (!day) return outcome;
    const bookable = day.listed && day.active && day.open && date >= day.today(now);
    const [slots, bookings] = bookable
      ? await Promise.all([readSlots(trx, day, date, now), readBookings(trx, serviceId, date, now)])
      : [[], []];
    const minutes = zonedNow(day.time_zone, now).minutes;
    const plan = planDay({
      now,
      holdMinutes: day.waitlist_hold_minutes,
      bookable,
      quiet: minutes < OFFER_HOURS.from || minutes >= OFFER_HOURS.to,
      slots,
      bookings,
      entries,
    });
    for (const change of plan.ended) {
      if (await endEntry(trx, change.id, change, now)) outcome.ended += 1;
    }
    for (const offer of plan.offers) {
      const entry = await markOffered(trx, offer.id, offer, now);
      const slot = slots.find((s) => s.id === offer.slotId);
      if (!entry || !slot) continue;
      const text = offerText({
        locale: entry.locale,
        organization: day.organization_name,
        service: localizedText(day.service_name, day.service_name_fr, entry.locale),
        date,
        startMinutes: zonedNow(day.time_zone, slot.startsAt).minutes,
        endsMinutes: zonedNow(day.time_zone, offer.expiresAt).minutes,
        link: offerLink(this.deps.publicOrigin, entry.id),
      });
      await queueCustomerMessage(
        trx,
        {
          kind: OFFER_KIND,
          organizationId: day.organization_id,
          channel: 'sms',
          to: entry.phone,
          locale: entry.locale,
          // One offer SMS per entry, ever, whatever runs twice.
          dedupeKey: `waitlist:${entry.id}:offer`,
          // Names the row for operators; never sent, no personal data.
          written: { subject: `Waitlist offer ${date}`, text },
          usefulUntil: offer.expiresAt,
          timeZone: day.time_zone,
        },
        now,
      );
      outcome.offered += 1;
    }
    return outcome;
  }

  /** Every service-day with a line that may have changed, each in a transaction of its own. */
  async sweep(): Promise<WaitlistSweepResult> {
    const { db, clock } = this.deps;
    const result: WaitlistSweepResult = { days: 0, offered: 0, ended: 0 };
    let after: { booking_date: string; service_id: string } | undefined;
    for (;;) {
      const days = await listDaysToSettle(db, DAYS_PER_SWEEP, clock.now(), after);
      for (const day of days) {
        const outcome = await db
          .transaction()
          .execute((trx) => this.settleDay(trx, day.service_id, day.booking_date, clock.now()));
        result.days += 1;
        result.offered += outcome.offered;
        result.ended += outcome.ended;
      }
      if (days.length < DAYS_PER_SWEEP) return result;
      after = days[days.length - 1];
    }
  }

  /**
   * Why a queued offer SMS is no longer to be sent (the outbox asks just before sending),
   * or null: an offer that ended (booked, lapsed, missed, expired, withdrawn) or whose hold
   * ran out is not sent late, so nobody is told of a seat after its day.
   */
  async skipReason(row: OutboxRow, now: Date): Promise<string | null> {
    if (row.kind !== OFFER_KIND) return null;
    const id = OFFER_KEY.exec(row.dedupe_key ?? '')?.[1];
    const entry = id ? await findEntry(this.deps.db, id) : undefined;
    if (!entry) return 'waitlist entry not found';
    if (entry.state !== 'offered') return `waitlist entry is ${entry.state}`;
    if ((entry.offer_expires_at?.getTime() ?? 0) <= now.getTime()) return 'the offer has ended';
    return null;
  }
}

/** Runs the waitlist sweep every `intervalMs` on this process. */
export class WaitlistSweep {
  private readonly loop: PeriodicSweep<WaitlistSweepResult>;

  constructor(offers: WaitlistOffers, intervalMs: number, log: FastifyBaseLogger) {
    this.loop = new PeriodicSweep(
      () => offers.sweep(),
      intervalMs,
      (err: unknown) => log.error({ err }, 'waitlist sweep failed'),
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
