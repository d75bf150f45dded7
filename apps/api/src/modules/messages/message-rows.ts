/**
 * What the outbox keeps of a booking message: its kind, which of the booking's times it is
 * about, its dedupe key, its rows. Apart from booking-messages.ts (the interface the
 * self-service work calls), so that tests may stand in for that interface alone.
 */
import { formatMinutes } from '@qless/contract';
import type { Db, OutboxChannel } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import type { CustomerMessage } from './message-door.js';

/** What happened to a booking that the customer is told about. */
export type BookingMessageEvent =
  | 'confirmation'
  | 'reminder_day_before'
  | 'reminder_2h'
  | 'cancellation'
  | 'reschedule';

export const BOOKING_MESSAGE_EVENTS: readonly BookingMessageEvent[] = [
  'confirmation',
  'reminder_day_before',
  'reminder_2h',
  'cancellation',
  'reschedule',
];

/** The outbox `kind` of each event's messages. */
export function kindOf(event: BookingMessageEvent): `booking_${BookingMessageEvent}` {
  return `booking_${event}`;
}

export function eventOfKind(kind: string): BookingMessageEvent | null {
  const event = kind.replace(/^booking_/, '') as BookingMessageEvent;
  return kind.startsWith('booking_') && BOOKING_MESSAGE_EVENTS.includes(event) ? event : null;
}

/** What of a booking its messages depend on when they are queued. */
export interface BookingTarget {
  id: string;
  booking_date: string;
  /** The slot's start, "HH:MM:SS". */
  start_time: string;
  reschedule_count: number;
  phone_number: string;
  cus_email: string;
  locale: 'en' | 'fr';
  /** The organization's zone (quiet hours). */
  time_zone: string;
  organization_id: string;
}

/**
 * Which of a booking's times a message is about: `<reschedules>.<date>T<HH:MM>`, e.g.
 * `0.2026-03-05T09:30`, then `1.2026-03-06T10:00` once moved. A reschedule starts a new
 * occurrence, so the new time gets its own reminders and reschedule message, and those of
 * the old time are skipped when they come due.
 */
export function occurrenceOf(
  b: Pick<BookingTarget, 'reschedule_count' | 'booking_date' | 'start_time'>,
): string {
  return `${b.reschedule_count}.${b.booking_date}T${formatMinutes(timeToMinutes(b.start_time))}`;
}

/**
 * One message per (booking, event, occurrence, channel), across processes: the outbox's
 * unique dedupe key, e.g. `booking:<uuid>:reminder_2h:0.2026-03-05T09:30:sms`.
 */
export function dedupeKey(
  bookingId: string,
  event: BookingMessageEvent,
  occurrence: string,
  channel: OutboxChannel,
): string {
  return `booking:${bookingId}:${event}:${occurrence}:${channel}`;
}

/** The rows of one event: an SMS to the booking's phone, an e-mail when one was given. */
export function messagesFor(target: BookingTarget, event: BookingMessageEvent): CustomerMessage[] {
  const occurrence = occurrenceOf(target);
  const recipients: [OutboxChannel, string][] = [['sms', target.phone_number.trim()]];
  const email = target.cus_email.trim();
  if (email) recipients.push(['email', email]);
  return recipients
    .filter(([, to]) => to !== '')
    .map(([channel, to]) => ({
      channel,
      to,
      kind: kindOf(event),
      booking: { id: target.id, occurrence },
      locale: target.locale,
      dedupeKey: dedupeKey(target.id, event, occurrence, channel),
      organizationId: target.organization_id,
      timeZone: target.time_zone,
    }));
}

/**
 * The columns of a BookingTarget, from `bookings as b` joined with its `slots as s` and its
 * `organizations as o`.
 */
export const BOOKING_TARGET_COLUMNS = [
  'b.id',
  'b.booking_date',
  's.start_time',
  'b.reschedule_count',
  'b.phone_number',
  'b.cus_email',
  'b.locale',
  'o.time_zone',
  'b.organization_id',
] as const;

/** The booking as its messages need it, read in the caller's transaction. */
export function findBookingTarget(db: Db, bookingId: string): Promise<BookingTarget | undefined> {
  return db
    .selectFrom('bookings as b')
    .innerJoin('slots as s', 's.id', 'b.slot_id')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .select(BOOKING_TARGET_COLUMNS)
    .where('b.id', '=', bookingId)
    .executeTakeFirst();
}
