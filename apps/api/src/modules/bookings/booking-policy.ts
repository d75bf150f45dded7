import {
  type BookingStatus,
  type CustomerBooking,
  type ErrorCode,
  isSlotInPast,
  zonedInstant,
} from '@qless/contract';
import type { AuthContext } from '../../core/access/auth-guard.js';
import type { BookingAccess } from '../../core/access/booking-access.js';
import { canActOn, countersOnly } from '../../core/access/roles.js';
import { todayOf } from '../../core/local-time.js';
import { timeToMinutes } from '../../db/time-columns.js';
import { AppError } from '../../errors.js';
import { type CounterBooking, stateReason } from '../tickets/tickets.module.js';

/*
 * Who may cancel or change a booking, and when: the one place that says it.
 * - the customer (whoever holds the booking's access key): cancel or move a confirmed
 *   booking until the organization's cut-off before its start;
 * - the payer of a pending payment (the same key): give the payment up while it is pending,
 *   which releases its hold (whether it is still pending is the state machine's to decide,
 *   in one conditional update);
 * - the organization (staff, its admins) and operators: cancel a held or confirmed booking,
 *   mark a confirmed one whose slot has started as a no-show; operators on any
 *   organization, the others on their own only, and staff on today's bookings only.
 * The callers ask here and then write with a condition on the state they were allowed from.
 */

type Timing = { booking_date: string; start_time: string; time_zone: string };

/** When the booking's slot starts, as an instant (the date and time are the organization's). */
export function startsAt(row: Timing): Date {
  return zonedInstant(row.booking_date, timeToMinutes(row.start_time), row.time_zone);
}

/** Until when the customer may cancel or move the booking: its start less the cut-off. */
export function changeDeadline(row: Timing & { change_cutoff_minutes: number }): Date {
  return new Date(startsAt(row).getTime() - row.change_cutoff_minutes * 60_000);
}

/** Why the customer may not change the booking now; null when they may. */
export function customerChangeBlocked(
  row: Timing & { change_cutoff_minutes: number; status: BookingStatus },
  now: Date,
): CustomerBooking['change_blocked'] {
  if (row.status !== 'confirmed') return 'NOT_CONFIRMED';
  return now.getTime() >= changeDeadline(row).getTime() ? 'PAST_CUTOFF' : null;
}

const NOT_CHANGEABLE: Partial<Record<BookingStatus, string>> = {
  held: 'This booking is not paid yet.',
  checked_in: 'This booking was already used at the counter.',
  cancelled: 'This booking was cancelled.',
  no_show: 'This booking’s time has passed.',
  expired: 'This booking expired before it was paid.',
};

/** The customer may cancel or move the booking now, or 409 saying why not. */
export function assertCustomerMayChange(
  row: Timing & { change_cutoff_minutes: number; status: BookingStatus },
  now: Date,
): void {
  const blocked = customerChangeBlocked(row, now);
  if (blocked === 'NOT_CONFIRMED') {
    throw new AppError(
      409,
      'BOOKING_NOT_CHANGEABLE',
      NOT_CHANGEABLE[row.status] ?? 'This booking can no longer be changed.',
    );
  }
  if (blocked === 'PAST_CUTOFF') {
    throw new AppError(
      409,
      'CHANGE_PAST_CUTOFF',
      `Bookings can be changed until ${row.change_cutoff_minutes} minutes before their time.`,
    );
  }
}

const KEY_REFUSED = {
  booking: 'This link does not open this booking. Open the whole link from your SMS or e-mail.',
  payment: 'Only the device that started this payment can cancel it.',
} as const;

/**
 * The caller holds the booking's access key (the customer), or 403. Asked before the
 * booking is even looked up: a caller without the key learns nothing, not even whether the
 * id exists. `for` words the refusal: a booking's link, or the payment started on a device.
 */
export function assertKeyHolder(
  access: BookingAccess,
  bookingId: string,
  key: string | undefined,
  refused: keyof typeof KEY_REFUSED,
): void {
  if (!access.verify(bookingId, key)) {
    throw new AppError(403, 'BOOKING_ACCESS_DENIED', KEY_REFUSED[refused]);
  }
}

/** What the organization may do to a booking at the counter or in its area. */
export type OrganizationAction = 'no_show' | 'cancel';

/** From which states each action may move a booking. */
export const ORGANIZATION_ALLOWED_FROM: Record<OrganizationAction, readonly BookingStatus[]> = {
  // Paid and not seen: only a confirmed booking can be missed.
  no_show: ['confirmed'],
  // Cancelling frees the seat (only held, confirmed and checked-in bookings occupy one).
  cancel: ['held', 'confirmed'],
};

/**
 * May this account act on the booking at all? Another organization's booking is not said to
 * exist; nor, to staff, one of another day than today (the counter's work; the
 * organization's admins manage other days). 404 when not.
 */
export function assertOrganizationReaches(
  auth: AuthContext,
  booking: CounterBooking | undefined,
  now: Date,
): asserts booking is CounterBooking {
  const outOfReach =
    countersOnly(auth.user) &&
    booking !== undefined &&
    booking.booking_date !== todayOf(booking, now);
  if (!booking || !canActOn(auth, booking.organization_id) || outOfReach) {
    throw new AppError(404, 'BOOKING_NOT_FOUND', 'No such booking.');
  }
}

/** The 409 of an action the booking's state does not allow (also after a lost race). */
export function organizationActionRefused(booking: { status: BookingStatus }): AppError {
  const reason = stateReason(booking.status);
  const code: ErrorCode = reason === 'OK' ? 'VALIDATION_FAILED' : reason;
  return new AppError(409, code, `This booking is ${booking.status.replace('_', ' ')}.`);
}

/** The booking's state (and, for a no-show, its start) allows the action now, or 409. */
export function assertOrganizationMay(
  action: OrganizationAction,
  booking: CounterBooking,
  now: Date,
): void {
  if (!ORGANIZATION_ALLOWED_FROM[action].includes(booking.status)) {
    throw organizationActionRefused(booking);
  }
  if (action === 'no_show') {
    const started = isSlotInPast(
      booking.booking_date,
      timeToMinutes(booking.start_time),
      booking.time_zone,
      now,
    );
    if (!started) {
      throw new AppError(409, 'SLOT_NOT_STARTED', 'This booking’s time has not come yet.');
    }
  }
}
