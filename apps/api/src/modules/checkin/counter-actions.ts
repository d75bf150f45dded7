import {
  type BookingStatus,
  type CheckinBooking,
  type ErrorCode,
  isSlotInPast,
} from '@qless/contract';
import type { Kysely } from 'kysely';
import type { DB, Db } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import { AppError } from '../../errors.js';
import { type AuthContext, canActOn } from '../auth/auth-guard.js';
import { changeBookingStatus, lockBookingForUpdate } from '../bookings/bookings.repository.js';
import { queueBookingMessages } from '../messages/booking-messages.js';
import {
  type CounterBooking,
  findCounterBooking,
  stateReason,
  toCheckinBooking,
  todayOf,
} from '../tickets/ticket-check.js';

export type CounterAction = 'no_show' | 'cancel';

/** From which states each action may move a booking. */
const ALLOWED_FROM: Record<CounterAction, readonly BookingStatus[]> = {
  // Paid and not seen: only a confirmed booking can be missed.
  no_show: ['confirmed'],
  // Cancelling frees the seat (only held, confirmed and checked-in bookings occupy one).
  cancel: ['held', 'confirmed'],
};
const TARGET: Record<CounterAction, BookingStatus> = { no_show: 'no_show', cancel: 'cancelled' };

function notAllowed(booking: CounterBooking): AppError {
  const reason = stateReason(booking.status);
  const code: ErrorCode = reason === 'OK' ? 'VALIDATION_FAILED' : reason;
  return new AppError(409, code, `This booking is ${booking.status.replace('_', ' ')}.`);
}

async function ownBooking(db: Db, auth: AuthContext, bookingId: string, now: Date) {
  const booking = await findCounterBooking(db, bookingId);
  // Another organization's booking is not said to exist; nor, to staff, one of another
  // day than today (the counter's work; the organization's admins manage other days).
  const outOfReach =
    auth.user.role === 'staff' &&
    booking !== undefined &&
    booking.booking_date !== todayOf(booking, now);
  if (!booking || !canActOn(auth, booking.organization_id) || outOfReach) {
    throw new AppError(404, 'BOOKING_NOT_FOUND', 'No such booking.');
  }
  return booking;
}

/**
 * No-show (a confirmed booking whose slot has started) or cancel (held or confirmed),
 * by the booking's organization (or an operator). One conditional UPDATE each: a booking
 * checked in meanwhile is not marked missed.
 */
export async function applyCounterAction(
  db: Kysely<DB>,
  auth: AuthContext,
  bookingId: string,
  action: CounterAction,
  now: Date,
): Promise<CheckinBooking> {
  const booking = await ownBooking(db, auth, bookingId, now);
  const from = ALLOWED_FROM[action];
  if (!from.includes(booking.status)) throw notAllowed(booking);
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
  // The organization cancelled it (at the counter or in its area). A paid booking's customer
  // is told, by a message queued in the same transaction as the change.
  const changed = await db.transaction().execute(async (trx) => {
    // Locked first: the status it is changed from decides (a hold paid meanwhile is confirmed).
    const { status } = await lockBookingForUpdate(trx, booking.booking_id);
    const done = await changeBookingStatus(
      trx,
      booking.booking_id,
      from,
      TARGET[action],
      now,
      'organization',
    );
    if (done && action === 'cancel' && status === 'confirmed') {
      await queueBookingMessages(trx, booking.booking_id, 'cancellation', now);
    }
    return done;
  });
  const fresh = (await findCounterBooking(db, booking.booking_id)) ?? booking;
  if (!changed) throw notAllowed(fresh);
  return toCheckinBooking(fresh);
}
