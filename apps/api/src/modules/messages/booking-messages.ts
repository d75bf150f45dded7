import type { Db } from '../../db/schema.js';
import { queueCustomerMessages } from './message-door.js';
import { type BookingMessageEvent, findBookingTarget, messagesFor } from './message-rows.js';
import { followBookingTo } from './push-subscriptions.js';

export type { BookingMessageEvent } from './message-rows.js';

/**
 * Queues the customer's messages (SMS, and e-mail when one was given) about `event` in the
 * caller's transaction, so a message exists exactly when the change it reports committed.
 * Call it after the booking row says what happened (confirmed; cancelled; for a
 * reschedule: its new date and slot, `reschedule_count` incremented). Queuing the same
 * event of the same occurrence again adds nothing. The text is written when the message
 * is sent, from the booking as it then stands (message-preparer.ts).
 * Interface agreed between the self-service and messages work.
 */
export async function queueBookingMessages(
  trx: Db,
  bookingId: string,
  event: BookingMessageEvent,
  now: Date,
): Promise<void> {
  const target = await findBookingTarget(trx, bookingId);
  if (!target) throw new Error(`queueBookingMessages: no booking ${bookingId}`);
  await queueCustomerMessages(trx, messagesFor(target, event), now);
  // Moved to another day: the phones that asked for its news follow it (decision 142).
  if (event === 'reschedule') await followBookingTo(trx, bookingId, target.booking_date);
}
