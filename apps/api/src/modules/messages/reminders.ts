import { addDays, zonedInstant } from '@qless/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { DB } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import { PeriodicSweep } from '../../periodic.js';
import { queueCustomerMessages } from './message-door.js';
import {
  BOOKING_TARGET_COLUMNS,
  type BookingMessageEvent,
  type BookingTarget,
  kindOf,
  messagesFor,
  occurrenceOf,
} from './message-rows.js';

/**
 * The reminder rules (docs/using-qless.md, "Messages to customers"):
 * - the day-before reminder is due at 18:00 on the organization's wall clock on the day
 *   before the booking's date; the 2-hour reminder 2 hours before the slot starts;
 * - a reminder is queued while it is due and the slot has not begun: the day-before one
 *   until the 2-hour one is due (then only the 2-hour one goes), the 2-hour one until the
 *   slot starts;
 * - a reminder whose due time had passed when the booking took its time (confirmed, or
 *   rescheduled: `rescheduled_at`) is never sent;
 * - only confirmed bookings get reminders, each occurrence (time) its own: a rescheduled
 *   booking is reminded of its new time only, a cancelled one of nothing.
 */
export const DAY_BEFORE_AT_MINUTES = 18 * 60;
export const REMINDER_LEAD_MS = 2 * 3_600_000;

export type ReminderEvent = Extract<BookingMessageEvent, 'reminder_day_before' | 'reminder_2h'>;

export interface ReminderTimes {
  start: Date;
  dayBefore: Date;
  twoHours: Date;
}

export function reminderTimes(date: string, startMinutes: number, timeZone: string): ReminderTimes {
  const start = zonedInstant(date, startMinutes, timeZone);
  return {
    start,
    dayBefore: zonedInstant(addDays(date, -1), DAY_BEFORE_AT_MINUTES, timeZone),
    twoHours: new Date(start.getTime() - REMINDER_LEAD_MS),
  };
}

/**
 * The reminder to queue at `now`, or null. `since`: when the booking took its current
 * time (confirmed or rescheduled); a reminder already due then is not sent.
 */
export function dueReminder(times: ReminderTimes, now: Date, since: Date): ReminderEvent | null {
  const t = now.getTime();
  if (t >= times.start.getTime()) return null;
  if (t >= times.twoHours.getTime()) {
    return times.twoHours.getTime() >= since.getTime() ? 'reminder_2h' : null;
  }
  if (t >= times.dayBefore.getTime()) {
    return times.dayBefore.getTime() >= since.getTime() ? 'reminder_day_before' : null;
  }
  return null;
}

const REMINDER_KINDS = [kindOf('reminder_day_before'), kindOf('reminder_2h')];
const CHUNK = 500;

/**
 * Queues the reminders that are due, on every process: each sweep reads the confirmed
 * bookings of the dates a reminder can be due for, works out which reminder each one is
 * due now (the clock is injected), leaves out those already in the outbox, and inserts the
 * rest with ON CONFLICT DO NOTHING on the dedupe key, so two processes sweeping at the same
 * moment queue each reminder once.
 */
export class ReminderSweep {
  private readonly loop: PeriodicSweep;

  constructor(
    private readonly deps: {
      db: Kysely<DB>;
      clock: Clock;
      intervalMs: number;
      log: FastifyBaseLogger;
    },
  ) {
    this.loop = new PeriodicSweep(
      () => this.sweep(),
      deps.intervalMs,
      (err: unknown) => deps.log.error({ err }, 'reminder sweep failed'),
    );
  }

  /** Queues the reminders due now; answers how many messages were added. */
  async sweep(): Promise<number> {
    const { db, clock, log } = this.deps;
    const now = clock.now();
    // A reminder is due between 18:00 the day before and the slot, on the organization's
    // clock; every zone's today is within a day of UTC's.
    const utcToday = now.toISOString().slice(0, 10);
    const candidates = await db
      .selectFrom('bookings as b')
      .innerJoin('slots as s', 's.id', 'b.slot_id')
      .innerJoin('organizations as o', 'o.id', 'b.organization_id')
      .select([...BOOKING_TARGET_COLUMNS, 'b.confirmed_at', 'b.rescheduled_at'])
      .where('b.status', '=', 'confirmed')
      .where('b.booking_date', '>=', addDays(utcToday, -1))
      .where('b.booking_date', '<=', addDays(utcToday, 2))
      .execute();
    const due: { target: BookingTarget; event: ReminderEvent }[] = [];
    for (const b of candidates) {
      const times = reminderTimes(b.booking_date, timeToMinutes(b.start_time), b.time_zone);
      const since = Math.max(b.confirmed_at?.getTime() ?? 0, b.rescheduled_at?.getTime() ?? 0);
      const event = dueReminder(times, now, new Date(since));
      if (event) due.push({ target: b, event });
    }
    let queued = 0;
    for (let i = 0; i < due.length; i += CHUNK) {
      const chunk = due.slice(i, i + CHUNK);
      const existing = await db
        .selectFrom('outbox')
        .select(['booking_id', 'kind', 'occurrence'])
        .where(
          'booking_id',
          'in',
          chunk.map((d) => d.target.id),
        )
        .where('kind', 'in', REMINDER_KINDS)
        .execute();
      const have = new Set(existing.map((r) => `${r.booking_id}|${r.kind}|${r.occurrence}`));
      const rows = chunk
        .filter(
          ({ target, event }) => !have.has(`${target.id}|${kindOf(event)}|${occurrenceOf(target)}`),
        )
        .flatMap(({ target, event }) => messagesFor(target, event));
      queued += await queueCustomerMessages(db, rows, now);
    }
    if (queued > 0) log.info({ queued }, 'reminders queued');
    return queued;
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
