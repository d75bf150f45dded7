import type { Db } from '../../db/schema.js';

/** What happened to a booking that the customer is told about (issue 10 item 3). */
export type BookingMessageEvent =
  | 'confirmation'
  | 'reminder_day_before'
  | 'reminder_2h'
  | 'cancellation'
  | 'reschedule';

/**
 * Queues the customer's messages (SMS, and e-mail when one was given) about `event` in the
 * caller's transaction, so a message exists exactly when the change it reports committed.
 * Interface agreed between the self-service and messages work; the messages module fills it.
 */
export async function queueBookingMessages(
  _trx: Db,
  _bookingId: string,
  _event: BookingMessageEvent,
  _now: Date,
): Promise<void> {
  // Filled by the messages module (issue 10, item 3).
}
