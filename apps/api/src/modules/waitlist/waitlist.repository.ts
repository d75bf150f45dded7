import {
  ACTIVE_BOOKING_STATUSES,
  addDays,
  dayOfWeek,
  zonedInstant,
  zonedNow,
} from '@qless/contract';
import { sql } from 'kysely';
import { isOpenOn, listedCondition, placeName } from '../../core/organizations.repository.js';
import type { Db, WaitlistEntryRow, WaitlistState } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import type { PlanBooking, PlanEntry, PlanSlot } from './waitlist-plan.js';

export const ACTIVE_STATES = ['waiting', 'offered'] as const satisfies readonly WaitlistState[];
const ACTIVE_BOOKINGS = sql.join(ACTIVE_BOOKING_STATUSES.map((status) => sql.lit(status)));

/**
 * Writers of one service-day's waitlist take turns (join, offers, lapses): a transaction
 * lock, on both engines, that nothing else takes. Taken after any booking row lock of the
 * same transaction, never before one.
 */
export async function lockDay(db: Db, serviceId: string, date: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`waitlist:${serviceId}:${date}`}))`.execute(db);
}

/** A number's entries take turns too, so its cap holds under concurrent joins. */
export async function lockPhone(db: Db, phone: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`waitlist-phone:${phone}`}))`.execute(db);
}

/** The service, its organization and the day, as the waitlist reads them. */
export async function readDay(db: Db, serviceId: string, date: string) {
  const row = await db
    .selectFrom('services as s')
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .select([
      's.id as service_id',
      's.capacity',
      's.active',
      's.name as service_name',
      's.name_fr as service_name_fr',
      'o.id as organization_id',
      placeName('o').as('organization_name'),
      'o.time_zone',
      'o.open_days',
      'o.waitlist_hold_minutes',
      sql<boolean>`${listedCondition('o')}`.as('listed'),
      sql<boolean>`exists (select 1 from organization_closures c
        where c.organization_id = o.id and c.closed_on = ${date}::date)`.as('closed'),
    ])
    .where('s.id', '=', serviceId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    listed: Boolean(row.listed),
    open: isOpenOn(row.open_days, dayOfWeek(date)) && !row.closed,
    today: (now: Date) => zonedNow(row.time_zone, now).date,
  };
}
export type WaitlistDay = NonNullable<Awaited<ReturnType<typeof readDay>>>;

/** The live slots of the service with the seats taken on the date (a lapsed hold is free). */
export async function readSlots(
  db: Db,
  day: WaitlistDay,
  date: string,
  now: Date,
): Promise<PlanSlot[]> {
  const rows = await db
    .selectFrom('slots as sl')
    .select([
      'sl.id',
      'sl.start_time',
      (eb) =>
        eb
          .selectFrom('bookings as b')
          .select(eb.fn.countAll<string | number>().as('n'))
          .whereRef('b.slot_id', '=', 'sl.id')
          .where('b.booking_date', '=', date)
          .where('b.status', 'in', ACTIVE_BOOKING_STATUSES)
          .where((w) => w.or([w('b.status', '<>', 'held'), w('b.hold_expires_at', '>', now)]))
          .as('taken'),
    ])
    .where('sl.service_id', '=', day.service_id)
    .where('sl.retired_at', 'is', null)
    .orderBy('sl.start_time')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    capacity: day.capacity,
    startsAt: zonedInstant(date, timeToMinutes(r.start_time), day.time_zone),
    taken: Number(r.taken ?? 0),
  }));
}

/** The day's active bookings, as far as the waitlist needs them (numbers, not names). */
export async function readBookings(
  db: Db,
  serviceId: string,
  date: string,
  now: Date,
): Promise<PlanBooking[]> {
  const rows = await db
    .selectFrom('bookings')
    .select(['id', 'slot_id', 'phone_number', 'status', 'hold_expires_at', 'created_at'])
    .where('service_id', '=', serviceId)
    .where('booking_date', '=', date)
    .where('status', 'in', ACTIVE_BOOKING_STATUSES)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    slotId: r.slot_id,
    phone: r.phone_number,
    paid: r.status !== 'held',
    liveHold: r.status === 'held' && (r.hold_expires_at?.getTime() ?? 0) > now.getTime(),
    createdAt: r.created_at,
  }));
}

/** The day's line: waiting and offered entries in the order they joined. */
export async function readLine(db: Db, serviceId: string, date: string): Promise<PlanEntry[]> {
  const rows = await db
    .selectFrom('waitlist_entries')
    .select([
      'id',
      'phone',
      'state',
      'created_at',
      'offered_slot_id',
      'offered_at',
      'offer_expires_at',
    ])
    .where('service_id', '=', serviceId)
    .where('booking_date', '=', date)
    .where('state', 'in', ACTIVE_STATES)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    phone: r.phone,
    state: r.state as PlanEntry['state'],
    createdAt: r.created_at,
    offeredSlotId: r.offered_slot_id,
    offeredAt: r.offered_at,
    offerExpiresAt: r.offer_expires_at,
  }));
}

export async function endEntry(
  db: Db,
  id: string,
  change: { state: WaitlistState; bookingId: string | null },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('waitlist_entries')
    .set({
      state: change.state,
      booking_id: change.bookingId,
      ended_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('state', 'in', ACTIVE_STATES)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** waiting → offered, once: an entry that is no longer waiting is never offered again. */
export async function markOffered(
  db: Db,
  id: string,
  offer: { slotId: string; expiresAt: Date },
  now: Date,
): Promise<WaitlistEntryRow | undefined> {
  return db
    .updateTable('waitlist_entries')
    .set({
      state: 'offered',
      offered_slot_id: offer.slotId,
      offered_at: now,
      offer_expires_at: offer.expiresAt,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('state', '=', 'waiting')
    .where('offered_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export function findEntry(db: Db, id: string) {
  return db.selectFrom('waitlist_entries').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findActiveEntry(db: Db, serviceId: string, date: string, phone: string) {
  return db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('service_id', '=', serviceId)
    .where('booking_date', '=', date)
    .where('phone', '=', phone)
    .where('state', 'in', ACTIVE_STATES)
    .executeTakeFirst();
}

/** 1 for the next to be offered; null when the entry no longer waits. */
export async function positionOf(db: Db, entry: WaitlistEntryRow): Promise<number | null> {
  if (entry.state !== 'waiting') return null;
  const row = await db
    .selectFrom('waitlist_entries')
    .select((eb) => eb.fn.countAll<string | number>().as('ahead'))
    .where('service_id', '=', entry.service_id)
    .where('booking_date', '=', entry.booking_date)
    .where('state', '=', 'waiting')
    .where('seq', '<', entry.seq)
    .executeTakeFirstOrThrow();
  return Number(row.ahead) + 1;
}

export async function countActive(
  db: Db,
  where: { phone: string } | { serviceId: string; date: string },
): Promise<number> {
  let query = db
    .selectFrom('waitlist_entries')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('state', 'in', ACTIVE_STATES);
  query =
    'phone' in where
      ? query.where('phone', '=', where.phone)
      : query.where('service_id', '=', where.serviceId).where('booking_date', '=', where.date);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Service-days with a line that a sweep must settle, oldest day first, after `after`: those
 * with an offer out (it may lapse or be taken), those ending soon (tomorrow at the latest in
 * UTC, whatever the organization's zone: their line may expire), and those with a free seat
 * on a live slot (a hold lapsed, a payment failed). A full day with only people waiting is
 * left alone: nothing can change for it until a seat frees.
 */
export function listDaysToSettle(
  db: Db,
  limit: number,
  now: Date,
  after?: { booking_date: string; service_id: string },
) {
  const soon = addDays(now.toISOString().slice(0, 10), 1);
  let query = db
    .selectFrom('waitlist_entries as w')
    .select(['w.service_id', 'w.booking_date'])
    .where('w.state', 'in', ACTIVE_STATES);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('w.booking_date', '>', after.booking_date),
        eb.and([
          eb('w.booking_date', '=', after.booking_date),
          eb('w.service_id', '>', after.service_id),
        ]),
      ]),
    );
  }
  return query
    .groupBy(['w.service_id', 'w.booking_date'])
    .having(
      sql<boolean>`bool_or(w.state = 'offered')
        or w.booking_date <= ${soon}::date
        or exists (
          select 1 from slots sl join services s on s.id = sl.service_id
          where sl.service_id = w.service_id and sl.retired_at is null
            and (select count(*) from bookings b
                 where b.slot_id = sl.id and b.booking_date = w.booking_date
                   and b.status in (${ACTIVE_BOOKINGS})
                   and (b.status <> 'held' or b.hold_expires_at > ${now})) < s.capacity)`,
    )
    .orderBy('w.booking_date')
    .orderBy('w.service_id')
    .limit(limit)
    .execute();
}
