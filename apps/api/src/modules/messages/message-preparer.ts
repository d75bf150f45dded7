import {
  daysBetween,
  localizedText,
  ticketPageUrl,
  ticketShortUrl,
  zonedInstant,
  zonedNow,
} from '@qless/contract';
import type { BookingAccess } from '../../core/access/booking-access.js';
import { ticketLinkCode } from '../../core/access/ticket-links.js';
import { placeName } from '../../core/organizations.repository.js';
import type { Db, OutboxRow } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import type { Preparation } from '../outbox/outbox.module.js';
import { eventOfKind, occurrenceOf } from './message-rows.js';
import { emailMessage, type MessageFacts, smsText } from './message-text.js';

function findMessageBooking(db: Db, bookingId: string) {
  return db
    .selectFrom('bookings as b')
    .innerJoin('slots as s', 's.id', 'b.slot_id')
    .innerJoin('services as sv', 'sv.id', 'b.service_id')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .leftJoin('slots as prev', 'prev.id', 'b.rescheduled_from_slot_id')
    .select([
      'b.id',
      'b.status',
      'b.cus_name',
      'b.booking_date',
      'b.reschedule_count',
      'b.ticket_code',
      'b.cancelled_by',
      'b.locale',
      'b.rescheduled_from_date',
      's.start_time',
      'prev.start_time as previous_start_time',
      'sv.name as service_name',
      'sv.name_fr as service_name_fr',
      placeName('o').as('organization_name'),
      'o.location',
      'o.city',
      'o.time_zone',
    ])
    .where('b.id', '=', bookingId)
    .executeTakeFirst();
}

type MessageBooking = NonNullable<Awaited<ReturnType<typeof findMessageBooking>>>;

function addressOf(b: MessageBooking): string {
  const location = b.location.trim();
  const city = b.city.trim();
  if (!city || location.toLowerCase().includes(city.toLowerCase())) return location;
  return location ? `${location}, ${city}` : city;
}

/**
 * Why a message about `event` is no longer to be sent, or null when it still is. A
 * reminder or a reschedule message belongs to one occurrence of the booking (its time
 * when queued): after a later reschedule it is skipped, the new time having its own.
 */
const TWO_HOURS = 2 * 60 * 60_000;

function staleReason(row: OutboxRow, b: MessageBooking, now: Date): string | null {
  const event = eventOfKind(row.kind);
  if (!event) return `not a booking message (${row.kind})`;
  if (event === 'cancellation') {
    return b.status === 'cancelled' ? null : `booking is ${b.status}`;
  }
  if (b.status !== 'confirmed') return `booking is ${b.status}`;
  const moved = row.occurrence !== occurrenceOf(b);
  if (event === 'reschedule' && moved) return 'booking moved again since';
  if (event === 'reminder_day_before' || event === 'reminder_2h') {
    if (moved) return 'booking moved since';
    const start = zonedInstant(b.booking_date, timeToMinutes(b.start_time), b.time_zone);
    if (start.getTime() <= now.getTime()) return 'the slot has begun';
    // Sent late (a server down in the evening, or held over quiet hours): the 2-hour one says it.
    if (event === 'reminder_day_before' && start.getTime() - now.getTime() <= TWO_HOURS) {
      return 'the 2-hour reminder is due';
    }
  }
  return b.ticket_code ? null : 'booking has no ticket';
}

/**
 * Writes a booking message when it is due, from the booking as it stands: in the language
 * it was queued in, with the ticket link (`/ticket/{code}#k=<access key>`). Messages that
 * are no longer true (a reminder of a cancelled or moved booking…) are skipped instead.
 */
export function bookingMessagePreparer(
  db: Db,
  deps: { publicOrigin: string; access: BookingAccess },
): (row: OutboxRow, now: Date) => Promise<Preparation> {
  return async (row, now) => {
    const b = row.booking_id ? await findMessageBooking(db, row.booking_id) : undefined;
    if (!b) return { skip: 'booking not found' };
    const stale = staleReason(row, b, now);
    if (stale || !b.ticket_code) return { skip: stale ?? 'booking has no ticket' };
    const locale = row.locale ?? b.locale;
    const event = eventOfKind(row.kind) ?? 'confirmation';
    const days = daysBetween(zonedNow(b.time_zone, now).date, b.booking_date);
    const relativeDay = days === 0 ? 'today' : days === 1 ? 'tomorrow' : null;
    const facts: MessageFacts = {
      event,
      locale,
      customerName: b.cus_name.trim(),
      organization: b.organization_name.trim(),
      address: addressOf(b),
      service: localizedText(b.service_name, b.service_name_fr, locale),
      date: b.booking_date,
      startMinutes: timeToMinutes(b.start_time),
      timeZone: b.time_zone,
      ticketCode: b.ticket_code,
      // An SMS carries the short link (decision 141); an e-mail the ticket page's own.
      link:
        row.channel === 'sms'
          ? ticketShortUrl(deps.publicOrigin, await ticketLinkCode(db, b.id))
          : ticketPageUrl(deps.publicOrigin, b.ticket_code, { k: deps.access.keyFor(b.id) }),
      cancelledByOrganization: b.cancelled_by === 'organization',
      previous:
        b.rescheduled_from_date && b.previous_start_time
          ? {
              date: b.rescheduled_from_date,
              startMinutes: timeToMinutes(b.previous_start_time),
            }
          : null,
      relativeDay: event === 'cancellation' ? null : relativeDay,
      at: now,
    };
    if (row.channel === 'sms') return { send: { subject: null, text: smsText(facts), html: null } };
    return { send: emailMessage(facts) };
  };
}
