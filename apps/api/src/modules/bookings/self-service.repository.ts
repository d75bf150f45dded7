import { sql } from 'kysely';
import { placeName } from '../../core/organizations.repository.js';
import type { Db } from '../../db/schema.js';

/** A booking with everything its customer sees about it (GET /bookings/{id}). */
function customerBookingQuery(db: Db) {
  return db
    .selectFrom('bookings as b')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .innerJoin('services as s', 's.id', 'b.service_id')
    .innerJoin('slots as sl', 'sl.id', 'b.slot_id')
    .leftJoin('slots as fs', 'fs.id', 'b.rescheduled_from_slot_id')
    .select([
      'b.id as booking_id',
      'b.ticket_code',
      'b.status',
      'b.organization_id',
      placeName('o').as('organization_name'),
      'o.location',
      'o.city',
      'o.time_zone',
      'o.change_cutoff_minutes',
      'b.service_id',
      's.name as service_name',
      's.name_fr as service_name_fr',
      's.duration_minutes',
      'b.slot_id',
      'b.booking_date',
      'sl.start_time',
      'sl.end_time',
      'b.cus_name',
      'b.cus_email',
      'b.phone_number',
      'b.locale',
      'b.whatsapp_opt_in_at',
      'b.confirmed_at',
      'b.hold_expires_at',
      'b.cancelled_by',
      'b.rescheduled_from_date',
      'fs.start_time as rescheduled_from_time',
      // Its visit once checked in (a transfer makes a new one; the latest is the live one).
      (eb) =>
        eb
          .selectFrom('visits as v')
          .select('v.id')
          .whereRef('v.booking_id', '=', 'b.id')
          .orderBy('v.created_at', 'desc')
          .orderBy('v.id', 'desc')
          .limit(1)
          .as('visit_id'),
    ]);
}

export type CustomerBookingRow = NonNullable<Awaited<ReturnType<typeof findCustomerBooking>>>;

export function findCustomerBooking(db: Db, bookingId: string) {
  return customerBookingQuery(db).where('b.id', '=', bookingId).executeTakeFirst();
}

export function findCustomerBookingByCode(db: Db, code: string) {
  return customerBookingQuery(db).where('b.ticket_code', '=', code).executeTakeFirst();
}

/**
 * The same, with the booking row locked for the rest of the transaction. Locked on its own,
 * then read: a joined SELECT … FOR UPDATE that waited for a concurrent move re-checks its
 * join against the old slot and would find no row at all.
 */
export async function lockCustomerBooking(db: Db, bookingId: string) {
  const locked = await db
    .selectFrom('bookings')
    .select('id')
    .where('id', '=', bookingId)
    .forUpdate()
    .executeTakeFirst();
  return locked ? findCustomerBooking(db, bookingId) : undefined;
}

/** The booking's latest payment (a new initiation from the same device makes a new booking). */
export function latestPaymentOf(db: Db, bookingId: string) {
  return db
    .selectFrom('payments')
    .select(['id', 'status', 'failure_code', 'ussd_code', 'created_at'])
    .where('booking_id', '=', bookingId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** A confirmed booking is cancelled by its customer; false when it was no longer confirmed. */
export async function cancelByCustomer(db: Db, bookingId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('bookings')
    .set({ status: 'cancelled', cancelled_by: 'customer', status_changed_at: now, updated_at: now })
    .where('id', '=', bookingId)
    .where('status', '=', 'confirmed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Moves a confirmed booking to another slot-date and seat, keeping its row (code, access key,
 * payment) and recording where it came from. The partial unique index on active seats is the
 * last guard against two bookings on one seat.
 */
export async function moveBooking(
  db: Db,
  move: {
    bookingId: string;
    from: { slotId: string; date: string };
    to: { slotId: string; date: string; seat: number };
  },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('bookings')
    .set((eb) => ({
      slot_id: move.to.slotId,
      booking_date: move.to.date,
      seat: move.to.seat,
      rescheduled_at: now,
      rescheduled_from_date: move.from.date,
      rescheduled_from_slot_id: move.from.slotId,
      reschedule_count: eb('reschedule_count', '+', 1),
      attention_reason: null,
      updated_at: now,
    }))
    .where('id', '=', move.bookingId)
    .where('status', '=', 'confirmed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The booking's WhatsApp opt-in (decision 144), and its visits' still in line with a number, so
 * that a turn already under way follows the choice: set once (the first time it was asked
 * for), or cleared. Answers the visits it changed.
 */
export async function setWhatsAppOptIn(db: Db, bookingId: string, on: boolean, now: Date) {
  const at = on ? sql<Date>`coalesce(whatsapp_opt_in_at, ${now})` : null;
  await db
    .updateTable('bookings')
    .set({ whatsapp_opt_in_at: at })
    .where('id', '=', bookingId)
    .execute();
  const visits = await db
    .updateTable('visits')
    .set({ whatsapp_opt_in_at: at })
    .where('booking_id', '=', bookingId)
    .where('state', 'in', ['waiting', 'called'])
    .where('phone', 'is not', null)
    .returning('id')
    .execute();
  return visits.map((v) => v.id);
}
