import { formatMinutes, localPart, type Ticket, type TicketLookup } from '@qless/contract';
import { placeName } from '../../core/organizations.repository.js';
import type { Db } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import type { TicketSigner } from './ticket-signer.js';

export interface TicketRecord {
  booking_id: string;
  organization_id: string;
  status: string;
  ticket_code: string | null;
  booking_date: string;
  confirmed_at: Date | null;
  cus_name: string;
  cus_email: string;
  phone_number: string;
  service_name: string;
  service_name_fr: string | null;
  organization_name: string;
  location: string;
  time_zone: string;
  start_time: string;
}

function ticketQuery(db: Db) {
  return db
    .selectFrom('bookings as b')
    .innerJoin('services as s', 's.id', 'b.service_id')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .innerJoin('slots as sl', 'sl.id', 'b.slot_id')
    .select([
      'b.id as booking_id',
      'b.organization_id',
      'b.status',
      'b.ticket_code',
      'b.booking_date',
      'b.confirmed_at',
      'b.cus_name',
      'b.cus_email',
      'b.phone_number',
      's.name as service_name',
      's.name_fr as service_name_fr',
      placeName('o').as('organization_name'),
      'o.location',
      'o.time_zone',
      'sl.start_time',
    ]);
}

export function findTicketByBooking(db: Db, bookingId: string): Promise<TicketRecord | undefined> {
  return ticketQuery(db).where('b.id', '=', bookingId).executeTakeFirst();
}

export function findTicketByCode(db: Db, code: string): Promise<TicketRecord | undefined> {
  return ticketQuery(db).where('b.ticket_code', '=', code).executeTakeFirst();
}

/** A ticket stands for a booking in one of these statuses. */
const TICKET_VALID_STATUSES: ReadonlySet<string> = new Set(['confirmed', 'checked_in']);

export function isTicketValid(bookingStatus: string): boolean {
  return TICKET_VALID_STATUSES.has(bookingStatus);
}

/** "ngono.marie@example.com" → "ng•••@example.com"; none ('', decision 121) stays ''. */
function maskEmail(email: string): string {
  if (!email.includes('@')) return '';
  const [user = '', domain = ''] = email.split('@');
  return `${user.slice(0, 2)}•••@${domain}`;
}

/** "+237677123456" → "+237 6•• ••• •56" */
function maskPhone(phone: string): string {
  const local = localPart(phone);
  return `+237 ${local.slice(0, 1)}•• ••• •${local.slice(-2)}`;
}

export async function toTicket(
  signer: TicketSigner,
  record: TicketRecord,
  options: { reveal: boolean },
): Promise<Ticket> {
  const code = record.ticket_code;
  if (!code) throw new Error('booking has no ticket');
  return {
    code,
    token: await signer.sign({ ...record, ticket_code: code }),
    organization: record.organization_name,
    location: record.location,
    service: record.service_name,
    service_fr: record.service_name_fr,
    date: record.booking_date,
    time: formatMinutes(timeToMinutes(record.start_time)),
    time_zone: record.time_zone,
    customer_name: record.cus_name,
    email: options.reveal ? record.cus_email : maskEmail(record.cus_email),
    phone: options.reveal ? record.phone_number : maskPhone(record.phone_number),
  };
}

/** What a ticket code alone may learn: place, time and state; nothing about the customer. */
export function toTicketLookup(record: TicketRecord): TicketLookup {
  if (!record.ticket_code) throw new Error('booking has no ticket');
  if (record.status !== 'confirmed' && record.status !== 'checked_in') {
    throw new Error(`a ${record.status} booking has no valid ticket`);
  }
  return {
    code: record.ticket_code,
    organization: record.organization_name,
    location: record.location,
    service: record.service_name,
    service_fr: record.service_name_fr,
    date: record.booking_date,
    time: formatMinutes(timeToMinutes(record.start_time)),
    time_zone: record.time_zone,
    status: record.status,
  };
}
