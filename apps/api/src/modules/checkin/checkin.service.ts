import type {
  CheckinBooking,
  CheckinRefusal,
  CheckinRefusalReason,
  TodayBookingStatus,
} from '@qless/contract';
import { TODAY_BOOKING_STATUSES } from '@qless/contract';
import { sql } from 'kysely';
import { todayOf } from '../../core/local-time.js';
import { placeName } from '../../core/organizations.repository.js';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { markCheckedIn } from '../bookings/bookings.module.js';
import type { TurnMessages } from '../queue/queue.module.js';
import {
  type BookingQueueArrival,
  bookingQueueArrival,
  enterBookingVisit,
  inTransaction,
} from '../queue/queue.module.js';
import type { TicketSigner } from '../tickets/tickets.module.js';
import {
  assessBooking,
  type CounterBooking,
  counterBookingQuery,
  findCounterBooking,
  resolveTicket,
  type TicketInput,
  toCheckinBooking,
} from '../tickets/tickets.module.js';

/** What each refusal says, for people reading logs and API answers; the screen uses `reason`. */
const MESSAGES: Record<CheckinRefusalReason, string> = {
  INVALID_SIGNATURE: 'This QR code is not a valid ticket.',
  UNKNOWN_TICKET: 'No ticket with this code.',
  WRONG_ORGANIZATION: 'This ticket is for another organization.',
  NOT_TODAY: 'This ticket is for another day.',
  ALREADY_CHECKED_IN: 'This ticket was already checked in.',
  BOOKING_HELD: 'This booking has not been paid.',
  BOOKING_CANCELLED: 'This booking was cancelled.',
  BOOKING_NO_SHOW: 'This booking was marked as a no-show.',
  BOOKING_EXPIRED: 'This booking expired before it was paid.',
};

const STATUS_OF: Record<CheckinRefusalReason, 400 | 403 | 404 | 409> = {
  INVALID_SIGNATURE: 400,
  UNKNOWN_TICKET: 404,
  WRONG_ORGANIZATION: 403,
  NOT_TODAY: 409,
  ALREADY_CHECKED_IN: 409,
  BOOKING_HELD: 409,
  BOOKING_CANCELLED: 409,
  BOOKING_NO_SHOW: 409,
  BOOKING_EXPIRED: 409,
};

export interface Refused {
  ok: false;
  status: 400 | 403 | 404 | 409;
  body: CheckinRefusal;
}
export type CheckinOutcome =
  | { ok: true; booking: CheckinBooking; queue: BookingQueueArrival | null }
  | Refused;

/** A refusal; another organization's booking is never described. */
export function refuse(reason: CheckinRefusalReason, booking: CounterBooking | null): Refused {
  const shown = reason === 'WRONG_ORGANIZATION' ? null : booking;
  const view = shown ? toCheckinBooking(shown) : null;
  return {
    ok: false,
    status: STATUS_OF[reason],
    body: {
      code: reason,
      message: MESSAGES[reason],
      reason,
      date: view?.date ?? null,
      checked_in_at: view?.checked_in_at ?? null,
      checked_in_time: view?.checked_in_time ?? null,
      booking: view,
    },
  };
}

/** A typed code (not a signed token) of a booking of another organization than `organizationId`. */
export function isForeignCode(
  input: TicketInput,
  booking: CounterBooking,
  organizationId: string,
): boolean {
  return 'code' in input && booking.organization_id !== organizationId;
}

/**
 * Checks a ticket in now, for the caller's organization, today: exactly once. Of two
 * counters scanning it at once, the conditional UPDATE lets one through; the other is told
 * when it was checked in.
 */
export async function checkIn(
  db: Db,
  signer: TicketSigner,
  request: { input: TicketInput; organizationId: string; userId: string },
  now: Date,
  turns: TurnMessages | null = null,
): Promise<CheckinOutcome> {
  const resolved = await resolveTicket(db, signer, request.input, now);
  if (!resolved.found) return refuse(resolved.reason, null);
  const { booking } = resolved;
  // A typed code of another organization is not said to exist: codes are short enough to
  // guess, a signed token is not.
  if (isForeignCode(request.input, booking, request.organizationId)) {
    return refuse('UNKNOWN_TICKET', null);
  }
  const today = todayOf(booking, now);
  const reason = assessBooking(booking, request.organizationId, today);
  if (reason !== 'OK') return refuse(reason, booking);
  // The booking enters the queue in the check-in's transaction: checked in means in line.
  const won = await inTransaction(db, async (trx) => {
    const changed = await markCheckedIn(
      trx,
      {
        bookingId: booking.booking_id,
        organizationId: request.organizationId,
        date: today,
        at: now,
        by: request.userId,
        clientId: null,
      },
      now,
    );
    if (changed) await enterBookingVisit(trx, booking.booking_id, now, now, turns);
    return changed;
  });
  const fresh = (await findCounterBooking(db, booking.booking_id)) ?? booking;
  if (!won) {
    const lost = assessBooking(fresh, request.organizationId, today);
    return refuse(lost === 'OK' ? 'ALREADY_CHECKED_IN' : lost, fresh);
  }
  return {
    ok: true,
    booking: toCheckinBooking(fresh),
    queue: await bookingQueueArrival(db, booking.booking_id),
  };
}

const SHOWN = sql.join(TODAY_BOOKING_STATUSES.map((s: TodayBookingStatus) => sql.lit(s)));

/**
 * The organization's day for the check-in screen: its date and zone, and its bookings in
 * slot order. Holds count while live; payments that failed (cancelled holds) are left out,
 * but a booking the counter cancelled stays listed.
 */
export async function organizationToday(db: Db, organizationId: string, now: Date) {
  const organization = await db
    .selectFrom('organizations')
    .select(['id', placeName('organizations').as('name'), 'time_zone'])
    .where('id', '=', organizationId)
    .executeTakeFirst();
  if (!organization) throw new AppError(404, 'ORGANIZATION_NOT_FOUND', 'No such organization.');
  const date = todayOf(organization, now);
  const rows = await counterBookingQuery(db)
    .where('b.organization_id', '=', organizationId)
    .where('b.booking_date', '=', date)
    .where(sql<boolean>`b.status in (${SHOWN})`)
    .where((eb) =>
      eb.or([
        eb.and([eb('b.status', '=', 'held'), eb('b.hold_expires_at', '>', now)]),
        eb.and([eb('b.status', '<>', 'held'), eb('b.ticket_code', 'is not', null)]),
        eb('b.status_changed_at', 'is not', null),
      ]),
    )
    .orderBy('sl.start_time')
    .orderBy('b.created_at')
    .execute();
  return {
    organization: {
      organization_id: organization.id,
      name: organization.name,
      time_zone: organization.time_zone,
    },
    date,
    server_time: now.toISOString(),
    bookings: rows.map(toCheckinBooking),
  };
}
