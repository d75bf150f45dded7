import {
  type BookingStatus,
  type CheckinBooking,
  type CheckinReason,
  formatMinutes,
  parseCompactTicketToken,
  TODAY_BOOKING_STATUSES,
  type TodayBookingStatus,
  ticketTokenFromScan,
} from '@qless/contract';
import { localTime, todayOf } from '../../core/local-time.js';
import type { Db } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import type { TicketSigner } from './ticket-signer.js';

/** A booking as the counter sees it: enough to decide a check-in and to show it. */
export interface CounterBooking {
  booking_id: string;
  organization_id: string;
  status: BookingStatus;
  /** Who marked it missed: 'system' is the queue's sweep (a late customer may still come). */
  no_show_by: 'organization' | 'system' | null;
  ticket_code: string | null;
  booking_date: string;
  cus_name: string;
  service_name: string;
  service_name_fr: string | null;
  time_zone: string;
  start_time: string;
  checked_in_at: Date | null;
  checked_in_client_id: string | null;
  confirmed_at: Date | null;
}

export function counterBookingQuery(db: Db) {
  return db
    .selectFrom('bookings as b')
    .innerJoin('services as s', 's.id', 'b.service_id')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .innerJoin('slots as sl', 'sl.id', 'b.slot_id')
    .select([
      'b.id as booking_id',
      'b.organization_id',
      'b.status',
      'b.no_show_by',
      'b.ticket_code',
      'b.booking_date',
      'b.cus_name',
      's.name as service_name',
      's.name_fr as service_name_fr',
      'o.time_zone',
      'sl.start_time',
      'b.checked_in_at',
      'b.checked_in_client_id',
      'b.confirmed_at',
    ]);
}

export function findCounterBooking(db: Db, bookingId: string) {
  return counterBookingQuery(db).where('b.id', '=', bookingId).executeTakeFirst();
}

export type TicketInput = { token: string } | { code: string };

export type ResolvedTicket =
  | { found: true; booking: CounterBooking }
  | { found: false; reason: 'INVALID_SIGNATURE' | 'UNKNOWN_TICKET' };

/**
 * The booking a scanned token (or a ticket page link that carries one) or a typed code
 * stands for. A compact token (code + signature) must carry our signature of its code. A
 * JWT (tickets issued before compact tokens) must carry our signature and name the
 * booking (id, code, organization); its date and time are taken from the booking, not
 * the token, so the QR of a ticket the customer rescheduled still checks in on the new
 * day. An HS256 token of the tickets issued before Ed25519 must also agree on the date and
 * counts only until that date has passed.
 */
export async function resolveTicket(
  db: Db,
  signer: TicketSigner,
  input: TicketInput,
  now: Date,
): Promise<ResolvedTicket> {
  if ('code' in input) {
    const booking = await counterBookingQuery(db)
      .where('b.ticket_code', '=', input.code)
      .executeTakeFirst();
    return booking ? { found: true, booking } : { found: false, reason: 'UNKNOWN_TICKET' };
  }
  const token = ticketTokenFromScan(input.token);
  const compact = token ? parseCompactTicketToken(token) : null;
  if (compact) {
    // The QR of today's tickets: the code, signed. The booking is the code's.
    if (!signer.verifyCompact(compact)) return { found: false, reason: 'INVALID_SIGNATURE' };
    const booking = await counterBookingQuery(db)
      .where('b.ticket_code', '=', compact.code)
      .executeTakeFirst();
    return booking ? { found: true, booking } : { found: false, reason: 'UNKNOWN_TICKET' };
  }
  const claims = token ? await signer.read(token) : null;
  if (!claims) return { found: false, reason: 'INVALID_SIGNATURE' };
  const booking = await findCounterBooking(db, claims.bookingId);
  const agrees =
    booking !== undefined &&
    booking.ticket_code === claims.code &&
    (!claims.legacy || booking.booking_date === claims.date) &&
    (claims.organizationId === null || claims.organizationId === booking.organization_id);
  if (!agrees) return { found: false, reason: 'UNKNOWN_TICKET' };
  if (claims.legacy && claims.date < todayOf(booking, now)) {
    return { found: false, reason: 'INVALID_SIGNATURE' };
  }
  return { found: true, booking };
}

const STATE_REASONS: Record<BookingStatus, CheckinReason> = {
  confirmed: 'OK',
  checked_in: 'ALREADY_CHECKED_IN',
  held: 'BOOKING_HELD',
  cancelled: 'BOOKING_CANCELLED',
  no_show: 'BOOKING_NO_SHOW',
  expired: 'BOOKING_EXPIRED',
};

export function stateReason(status: BookingStatus): CheckinReason {
  return STATE_REASONS[status];
}

/**
 * May this booking be checked in by `organizationId` (null: an operator, any) on `date`?
 * The organization first (nothing else about another's ticket is told), then the day,
 * then the state.
 */
export function assessBooking(
  booking: CounterBooking,
  organizationId: string | null,
  date: string,
): CheckinReason {
  if (organizationId !== null && booking.organization_id !== organizationId) {
    return 'WRONG_ORGANIZATION';
  }
  if (booking.booking_date !== date) return 'NOT_TODAY';
  // Marked missed by the queue's sweep (slot start + late grace passed) and here after all:
  // checked in, and served as a walk-in from now (decision 020). A no-show the counter
  // marked stays refused.
  if (booking.status === 'no_show' && booking.no_show_by === 'system') return 'OK';
  return stateReason(booking.status);
}

function isTodayStatus(status: BookingStatus): status is TodayBookingStatus {
  return (TODAY_BOOKING_STATUSES as readonly string[]).includes(status);
}

export function toCheckinBooking(booking: CounterBooking): CheckinBooking {
  const { checked_in_at: at, time_zone: tz } = booking;
  return {
    booking_id: booking.booking_id,
    ticket_code: booking.ticket_code,
    cus_name: booking.cus_name,
    service_name: booking.service_name,
    service_name_fr: booking.service_name_fr,
    date: booking.booking_date,
    time: formatMinutes(timeToMinutes(booking.start_time)),
    // An expired hold is no booking of the day; the screen shows it as cancelled.
    status: isTodayStatus(booking.status) ? booking.status : 'cancelled',
    checked_in_at: at ? at.toISOString() : null,
    checked_in_time: at ? localTime(at, tz) : null,
  };
}
