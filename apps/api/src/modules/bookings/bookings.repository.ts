import { ACTIVE_BOOKING_STATUSES, type BookingStatus } from '@qless/contract';
import { sql } from 'kysely';
import type { BookingsTable, Db } from '../../db/schema.js';

/** The active booking statuses as SQL literals, for `in (${ACTIVE})`. */
export const ACTIVE = sql.join(ACTIVE_BOOKING_STATUSES.map((status) => sql.lit(status)));

/**
 * Slot-dates of a service that are full: as many active bookings as the service's
 * capacity. A hold counts until it expires, even before the sweeper marks it expired.
 */
export function listTakenSlots(
  db: Db,
  serviceId: string,
  start: string,
  end: string,
  now: Date,
): Promise<{ booking_date: string; slot_id: string }[]> {
  return db
    .selectFrom('bookings as b')
    .innerJoin('services as s', 's.id', 'b.service_id')
    .select(['b.booking_date', 'b.slot_id'])
    .where('b.service_id', '=', serviceId)
    .where('b.booking_date', '>=', start)
    .where('b.booking_date', '<=', end)
    .where('b.status', 'in', ACTIVE_BOOKING_STATUSES)
    .where((eb) => eb.or([eb('b.status', '<>', 'held'), eb('b.hold_expires_at', '>', now)]))
    .groupBy(['b.booking_date', 'b.slot_id', 's.capacity'])
    .having(sql<number>`count(*)`, '>=', sql<number>`s.capacity`)
    .orderBy('b.booking_date')
    .orderBy('b.slot_id')
    .execute();
}

/**
 * How many seats are taken (held or booked) per slot and date between two dates, for the
 * slots with at least one: counts only, no customer data.
 */
export async function listSeatsTaken(
  db: Db,
  serviceId: string,
  start: string,
  end: string,
  now: Date,
): Promise<{ booking_date: string; slot_id: string; taken: number }[]> {
  const rows = await db
    .selectFrom('bookings as b')
    .select(['b.booking_date', 'b.slot_id', (eb) => eb.fn.countAll<string | number>().as('taken')])
    .where('b.service_id', '=', serviceId)
    .where('b.booking_date', '>=', start)
    .where('b.booking_date', '<=', end)
    .where('b.status', 'in', ACTIVE_BOOKING_STATUSES)
    .where((eb) => eb.or([eb('b.status', '<>', 'held'), eb('b.hold_expires_at', '>', now)]))
    .groupBy(['b.booking_date', 'b.slot_id'])
    .orderBy('b.booking_date')
    .orderBy('b.slot_id')
    .execute();
  return rows.map((r) => ({ ...r, taken: Number(r.taken) }));
}

/**
 * When the answer of `listTakenSlots`/`listSeatsTaken` for these dates changes by itself:
 * the earliest expiry of a hold still counted at `now` (null when none is).
 */
export async function earliestLiveHoldExpiry(
  db: Db,
  serviceId: string,
  start: string,
  end: string,
  now: Date,
): Promise<Date | null> {
  const row = await db
    .selectFrom('bookings as b')
    .select((eb) => eb.fn.min('b.hold_expires_at').as('first'))
    .where('b.service_id', '=', serviceId)
    .where('b.booking_date', '>=', start)
    .where('b.booking_date', '<=', end)
    .where('b.status', '=', 'held')
    .where('b.hold_expires_at', '>', now)
    .executeTakeFirst();
  return row?.first ?? null;
}

/** Locks a slot row: writers of one slot's bookings take turns (PostgreSQL). */
export async function lockSlot(db: Db, slotId: string): Promise<void> {
  await db.selectFrom('slots').select('id').where('id', '=', slotId).forUpdate().execute();
}

/** The lowest seat of a slot on a date that no active booking holds, or null when full. */
export async function findFreeSeat(
  db: Db,
  slotId: string,
  date: string,
  capacity: number,
): Promise<number | null> {
  const { rows } = await sql<{ seat: number }>`
    select s::int as seat from generate_series(1, ${capacity}::int) as s
    where not exists (
      select 1 from bookings b
      where b.slot_id = ${slotId} and b.booking_date = ${date}::date and b.seat = s
        and b.status in (${ACTIVE})
    )
    order by s limit 1`.execute(db);
  return rows[0]?.seat ?? null;
}

/** Holds whose time is up stop counting as taken. Returns how many were expired. */
export async function expireStaleHolds(
  db: Db,
  now: Date,
  scope: { slotId: string; date: string } | { limit: number },
): Promise<number> {
  // The conditions sit on the UPDATE itself: PostgreSQL re-checks them on a row that a
  // concurrent transaction just confirmed, so a paid booking is never lapsed.
  let update = db
    .updateTable('bookings')
    .set({ status: 'expired', updated_at: now })
    .where('status', '=', 'held')
    .where('hold_expires_at', '<=', now);
  if ('slotId' in scope) {
    update = update.where('slot_id', '=', scope.slotId).where('booking_date', '=', scope.date);
  } else {
    // Claimed first, in a statement of its own: as an `id in (subquery)`, PostgreSQL may
    // rescan the LIMIT … SKIP LOCKED subquery for every row and so expire them all.
    const claimed = await db
      .selectFrom('bookings')
      .select('id')
      .where('status', '=', 'held')
      .where('hold_expires_at', '<=', now)
      .limit(scope.limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (claimed.length === 0) return 0;
    update = update.where(
      'id',
      'in',
      claimed.map((row) => row.id),
    );
  }
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type NewHold = Pick<
  BookingsTable,
  | 'organization_id'
  | 'service_id'
  | 'slot_id'
  | 'booking_date'
  | 'cus_name'
  | 'cus_email'
  | 'phone_number'
> & { seat: number; hold_expires_at: Date; client_address?: string };

export async function insertHold(db: Db, hold: NewHold, now: Date): Promise<string> {
  const row = await db
    .insertInto('bookings')
    .values({ ...hold, status: 'held', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findHoldExpiry(db: Db, bookingId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('bookings')
    .select('hold_expires_at')
    .where('id', '=', bookingId)
    .executeTakeFirst();
  return row?.hold_expires_at ?? null;
}

/** A booking with its service's capacity, locked for the rest of the transaction. */
export function lockBookingForUpdate(db: Db, bookingId: string) {
  return db
    .selectFrom('bookings as b')
    .innerJoin('services as s', 's.id', 'b.service_id')
    .select(['b.id', 'b.status', 'b.slot_id', 'b.booking_date', 'b.seat', 's.capacity'])
    .where('b.id', '=', bookingId)
    .forUpdate('b')
    .executeTakeFirstOrThrow();
}

export async function ticketCodeExists(db: Db, code: string): Promise<boolean> {
  const row = await db
    .selectFrom('bookings')
    .select('id')
    .where('ticket_code', '=', code)
    .executeTakeFirst();
  return row !== undefined;
}

export async function markConfirmed(
  db: Db,
  bookingId: string,
  confirmation: { seat: number; ticketCode: string },
  now: Date,
): Promise<void> {
  await db
    .updateTable('bookings')
    .set({
      status: 'confirmed',
      seat: confirmation.seat,
      ticket_code: confirmation.ticketCode,
      confirmed_at: now,
      updated_at: now,
    })
    .where('id', '=', bookingId)
    .execute();
}

/** Releases a hold; a booking in any other state is left as it is. */
export async function cancelHeld(db: Db, bookingId: string, now: Date): Promise<void> {
  await db
    .updateTable('bookings')
    .set({ status: 'cancelled', updated_at: now })
    .where('id', '=', bookingId)
    .where('status', '=', 'held')
    .execute();
}

// At the counter (check-in, no-show, cancel): each is one conditional UPDATE, so of two
// counters acting on one booking at once exactly one changes it; the other sees 0 rows.

/** Checks a confirmed booking of the organization on `date` in. False: it was not so. */
export async function markCheckedIn(
  db: Db,
  change: {
    bookingId: string;
    organizationId: string;
    date: string;
    at: Date;
    by: string;
    clientId: string | null;
  },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('bookings')
    .set({
      status: 'checked_in',
      checked_in_at: change.at,
      checked_in_by: change.by,
      checked_in_client_id: change.clientId,
      status_changed_at: now,
      updated_at: now,
    })
    .where('id', '=', change.bookingId)
    .where('organization_id', '=', change.organizationId)
    .where('booking_date', '=', change.date)
    // A late customer whose booking the queue's sweep marked missed may still come today.
    .where((eb) =>
      eb.or([
        eb('status', '=', 'confirmed'),
        eb.and([eb('status', '=', 'no_show'), eb('no_show_by', '=', 'system')]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * An offline scan earlier than a check-in recorded by another offline scan becomes the
 * check-in (the first real scan wins). A check-in made online (no client id) is never
 * moved, and who checked the booking in first stays recorded. False: nothing moved.
 */
export async function moveCheckInEarlier(
  db: Db,
  change: { bookingId: string; at: Date; clientId: string },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('bookings')
    .set({ checked_in_at: change.at, checked_in_client_id: change.clientId, updated_at: now })
    .where('id', '=', change.bookingId)
    .where('status', '=', 'checked_in')
    .where('checked_in_client_id', 'is not', null)
    .where('checked_in_at', '>', change.at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * A booking moves from one of `from` to `to` (no-show, cancel). False: it was in none.
 * A cancellation and a no-show say who made them (the queue's sweep marks no-shows as
 * 'system'; nobody but an organization cancels as 'organization').
 */
export async function changeBookingStatus(
  db: Db,
  bookingId: string,
  from: readonly BookingStatus[],
  to: BookingStatus,
  now: Date,
  by: 'customer' | 'organization' | 'system' | null = null,
): Promise<boolean> {
  const result = await db
    .updateTable('bookings')
    .set({
      status: to,
      status_changed_at: now,
      updated_at: now,
      ...(to === 'cancelled' && by !== 'system' ? { cancelled_by: by } : {}),
      ...(to === 'no_show' && by !== 'customer' ? { no_show_by: by } : {}),
    })
    .where('id', '=', bookingId)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
