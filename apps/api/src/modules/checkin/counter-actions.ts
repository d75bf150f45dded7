import type { BookingStatus, CheckinBooking } from '@qless/contract';
import type { Kysely } from 'kysely';
import type { AuthContext } from '../../core/access/auth-guard.js';
import type { DB, Db } from '../../db/schema.js';
import {
  assertOrganizationMay,
  assertOrganizationReaches,
  changeBookingStatus,
  lockBookingForUpdate,
  ORGANIZATION_ALLOWED_FROM,
  type OrganizationAction,
  organizationActionRefused,
} from '../bookings/bookings.module.js';
import { queueBookingMessages } from '../messages/messages.module.js';
import { findCounterBooking, toCheckinBooking } from '../tickets/tickets.module.js';

/** What the counter may do to a booking; who may and when is booking-policy.ts's. */
export type CounterAction = OrganizationAction;

const TARGET: Record<CounterAction, BookingStatus> = { no_show: 'no_show', cancel: 'cancelled' };

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
  waitlist?: { settleDay(trx: Db, serviceId: string, date: string, now: Date): Promise<unknown> },
): Promise<CheckinBooking> {
  const booking = await findCounterBooking(db, bookingId);
  assertOrganizationReaches(auth, booking, now);
  assertOrganizationMay(action, booking, now);
  const from = ORGANIZATION_ALLOWED_FROM[action];
  // The organization cancelled it (at the counter or in its area). A paid booking's customer
  // is told, by a message queued in the same transaction as the change.
  const changed = await db.transaction().execute(async (trx) => {
    // Locked first: the status it is changed from decides (a hold paid meanwhile is confirmed).
    const { status, slot_id, booking_date } = await lockBookingForUpdate(trx, booking.booking_id);
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
    if (done && action === 'cancel') {
      // The seat is free: offered to the day's waitlist in this transaction (decision 023).
      const service = await trx
        .selectFrom('slots')
        .select('service_id')
        .where('id', '=', slot_id)
        .executeTakeFirstOrThrow();
      await waitlist?.settleDay(trx, service.service_id, booking_date, now);
    }
    return done;
  });
  const fresh = (await findCounterBooking(db, booking.booking_id)) ?? booking;
  if (!changed) throw organizationActionRefused(fresh);
  return toCheckinBooking(fresh);
}
