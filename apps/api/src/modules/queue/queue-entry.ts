/**
 * Visits entering the line: a checked-in booking, a staff walk-in, the public
 * join page all come through enterQueue, under the organization's queue lock.
 */
import { zonedInstant } from '@qless/contract';
import { todayOf } from '../../core/local-time.js';
import type { Db, VisitRow } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import { AppError } from '../../errors.js';
import { type QueueDay, visitNumber } from './queue-day.js';
import { notifyQueueChanged } from './queue-events.js';
import { settle } from './queue-settle.js';
import type { TurnMessages } from './turn-messages.js';
import { insertVisit, lockQueue, type NewVisit } from './visits.repository.js';

/**
 * A visit enters its organization's line (under the queue lock) with the next number of its
 * service's letter; the day read after it. `date` is the organization's today. `admit`, under
 * the lock before the insert, may refuse it (the join page's ceilings).
 */
export async function enterQueue(
  trx: Db,
  visit: Omit<NewVisit, 'date'>,
  now: Date,
  turns: TurnMessages | null,
  admit?: (date: string) => Promise<void>,
): Promise<{ visit: VisitRow; day: QueueDay }> {
  await lockQueue(trx, visit.organizationId);
  const org = await trx
    .selectFrom('organizations')
    .select(['time_zone', 'queue_priority_categories'])
    .where('id', '=', visit.organizationId)
    .executeTakeFirstOrThrow();
  const category = visit.priorityCategory ?? null;
  if (category !== null && !org.queue_priority_categories.includes(category)) {
    throw new AppError(
      400,
      'PRIORITY_CATEGORY_NOT_SERVED',
      'This organization does not serve this category first.',
    );
  }
  const date = todayOf(org, now);
  if (admit) await admit(date);
  const row = await insertVisit(trx, { ...visit, date }, now);
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
      'b.whatsapp_opt_in_at',
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
      whatsapp: b.whatsapp_opt_in_at !== null,
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

export interface BookingQueueArrival {
  /** "A-042", to read out at the desk. */
  number: string;
  /** Whether a counter open now serves the visit's service (else the desk warns). */
  open_counter: boolean;
}

/** The queue number a booking got at check-in, and whether an open counter serves it. */
export async function bookingQueueArrival(
  db: Db,
  bookingId: string,
): Promise<BookingQueueArrival | null> {
  const visit = await db
    .selectFrom('visits')
    .select(['letter', 'number', 'service_id'])
    .where('booking_id', '=', bookingId)
    .where('transferred_from', 'is', null)
    .executeTakeFirst();
  if (!visit) return null;
  const open = await db
    .selectFrom('counter_services as cs')
    .innerJoin('counters as c', 'c.id', 'cs.counter_id')
    .select('c.id')
    .where('cs.service_id', '=', visit.service_id)
    .where('c.state', '=', 'open')
    .where('c.retired_at', 'is', null)
    .executeTakeFirst();
  return { number: visitNumber(visit), open_counter: open !== undefined };
}
