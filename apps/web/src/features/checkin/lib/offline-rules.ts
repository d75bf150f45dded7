import type { CheckinBooking, TodayResponse } from '@qless/contract';
import { formatMinutes, zonedNow } from '@qless/contract/core';
import { type Outcome, refused } from './outcome';

/** What a ticket names: from a verified (or, failing that, read) token, or a typed code. */
export type TicketRef =
  | { kind: 'token'; bookingId: string; code: string; date: string; organizationId: string | null }
  | { kind: 'code'; code: string };

export type OfflineDecision =
  | { ok: true; booking: CheckinBooking }
  | { ok: false; outcome: Outcome };

/**
 * The server's rules, applied to the list cached when the screen was last online: the
 * organization, the day (the list's, which must still be today on this device; a token of
 * a booking in the list counts whatever day it names), and the booking's state in the list
 * (which offline check-ins update).
 */
export function decideOffline(
  cache: TodayResponse | null,
  ticket: TicketRef,
  now: Date,
): OfflineDecision {
  if (!cache) return { ok: false, outcome: { kind: 'no_list' } };
  const today = zonedNow(cache.organization.time_zone, now).date;
  if (today !== cache.date) return { ok: false, outcome: { kind: 'stale_list' } };
  let booking: CheckinBooking | undefined;
  if (ticket.kind === 'token') {
    if (ticket.organizationId && ticket.organizationId !== cache.organization.organization_id) {
      return { ok: false, outcome: refused('WRONG_ORGANIZATION') };
    }
    // The booking's day is the list's, not the token's: a customer who rescheduled keeps the
    // QR of the old day, and the server too takes the date from the booking.
    booking = cache.bookings.find(
      (b) => b.booking_id === ticket.bookingId && b.ticket_code === ticket.code,
    );
    if (!booking && ticket.date !== cache.date) {
      return { ok: false, outcome: refused('NOT_TODAY', { date: ticket.date }) };
    }
  } else {
    booking = cache.bookings.find((b) => b.ticket_code === ticket.code);
  }
  if (!booking) return { ok: false, outcome: refused('UNKNOWN_TICKET') };
  switch (booking.status) {
    case 'confirmed':
      return { ok: true, booking };
    case 'checked_in':
      return {
        ok: false,
        outcome: refused('ALREADY_CHECKED_IN', { time: booking.checked_in_time, booking }),
      };
    case 'held':
      return { ok: false, outcome: refused('BOOKING_HELD', { booking }) };
    case 'no_show':
      return { ok: false, outcome: refused('BOOKING_NO_SHOW', { booking }) };
    default:
      return { ok: false, outcome: refused('BOOKING_CANCELLED', { booking }) };
  }
}

/** The booking as checked in on this device at `now` (until the server says otherwise). */
export function checkedInLocally(
  booking: CheckinBooking,
  timeZone: string,
  now: Date,
): CheckinBooking {
  return {
    ...booking,
    status: 'checked_in',
    checked_in_at: now.toISOString(),
    checked_in_time: formatMinutes(zonedNow(timeZone, now).minutes),
  };
}
