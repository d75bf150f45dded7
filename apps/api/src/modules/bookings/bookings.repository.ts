import { ACTIVE_BOOKING_STATUSES, type BookingStatus } from '@qless/contract';
import { sql } from 'kysely';
import type { BookingsTable, Db } from '../../db/schema.js';
import { listedCondition } from '../organizations/organizations.repository.js';

const ACTIVE = sql.join(ACTIVE_BOOKING_STATUSES.map((status) => sql.lit(status)));

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

/** What starting a booking on a slot-date needs to know, as one statement read it. */
export interface BookableRead {
  service: { id: string; capacity: number };
  organization: { id: string; name: string; time_zone: string; open_days: number };
  /** The slot the request named, of whatever service; null when there is no such slot. */
  slot: { id: string; service_id: string; start_time: string; retired_at: Date | null } | null;
  /** The organization is closed on the date (a closure). */
  closed: boolean;
  /** Active bookings of the slot-date (a lapsed hold is not one). */
  taken: number;
  /** Of the numbers asked about, those with a live hold among them. */
  holdingPhones: Set<string>;
  /** Of the payment references asked about, those a payment carries already. */
  knownReferences: Set<string>;
}

/**
 * The service (active, of a listed organization), the slot, the closure, the seats taken,
 * which of `phones` hold one of them and which of `references` are known, in one statement
 * without locks and with only the columns a start uses (issue 11's contention: starts waiting
 * on one slot are answered together by this one read; the service's and organization's whole
 * rows would cost it 2–3× on PGlite). Undefined when the service is not listed.
 */
export async function readBookable(
  db: Db,
  input: {
    serviceId: string;
    slotId: string;
    date: string;
    phones?: readonly string[];
    references?: readonly string[];
  },
  now: Date,
): Promise<BookableRead | undefined> {
  const { slotId, date } = input;
  const phones = [...new Set(input.phones ?? [])];
  const references = [...new Set(input.references ?? [])];
  const none = sql<string[] | null>`null`;
  const row = await db
    .selectFrom('services as s')
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .leftJoin('slots as sl', (join) => join.on('sl.id', '=', slotId))
    .select([
      's.capacity',
      'o.id as organization_id',
      'o.name as organization_name',
      'o.time_zone',
      'o.open_days',
      'sl.id as slot_id',
      'sl.service_id as slot_service_id',
      'sl.start_time',
      'sl.retired_at',
      sql<boolean>`exists (select 1 from organization_closures c
        where c.organization_id = o.id and c.closed_on = ${date})`.as('closed'),
      sql<string | number>`t.taken`.as('taken'),
      sql<string[] | null>`t.holding`.as('holding'),
      (references.length === 0
        ? none
        : sql<string[] | null>`(select array_agg(p.reference) from payments p
            where p.reference in (${sql.join(references)}))`
      ).as('known'),
    ])
    .crossJoin(
      sql<{ taken: string | number; holding: string[] | null }>`lateral (
        select count(*) as taken,
          ${
            phones.length === 0
              ? none
              : sql`array_agg(distinct b.phone_number) filter (
                  where b.status = 'held' and b.phone_number in (${sql.join(phones)}))`
          } as holding
        from bookings b
        where b.slot_id = ${slotId} and b.booking_date = ${date} and b.status in (${ACTIVE})
          and (b.status <> 'held' or b.hold_expires_at > ${now})
      )`.as('t'),
    )
    .where('s.id', '=', input.serviceId)
    .where('s.active', '=', true)
    .where(listedCondition('o'))
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    service: { id: input.serviceId, capacity: row.capacity },
    organization: {
      id: row.organization_id,
      name: row.organization_name,
      time_zone: row.time_zone,
      open_days: row.open_days,
    },
    slot:
      row.slot_id === null || row.slot_service_id === null || row.start_time === null
        ? null
        : {
            id: row.slot_id,
            service_id: row.slot_service_id,
            start_time: row.start_time,
            retired_at: row.retired_at,
          },
    closed: Boolean(row.closed),
    taken: Number(row.taken),
    holdingPhones: new Set(row.holding ?? []),
    knownReferences: new Set(row.known ?? []),
  };
}

/** Of `references`, those a payment carries already. */
export async function findKnownReferences(
  db: Db,
  references: readonly string[],
): Promise<Set<string>> {
  if (references.length === 0) return new Set();
  const rows = await db
    .selectFrom('payments')
    .select('reference')
    .where('reference', 'in', [...new Set(references)])
    .execute();
  return new Set(rows.map((row) => row.reference));
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
    .where('status', '=', 'confirmed')
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
 * A cancellation says who made it.
 */
export async function changeBookingStatus(
  db: Db,
  bookingId: string,
  from: readonly BookingStatus[],
  to: BookingStatus,
  now: Date,
  cancelledBy: 'customer' | 'organization' | null = null,
): Promise<boolean> {
  const result = await db
    .updateTable('bookings')
    .set({
      status: to,
      status_changed_at: now,
      updated_at: now,
      ...(to === 'cancelled' ? { cancelled_by: cancelledBy } : {}),
    })
    .where('id', '=', bookingId)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
