import type { TicketVerifyResponse } from '@qless/contract';
import { localTime, todayOf } from '../../core/local-time.js';
import type { Db } from '../../db/schema.js';
import { assessBooking, resolveTicket } from './ticket-check.js';
import type { TicketSigner } from './ticket-signer.js';
import { findTicketByBooking, toTicket } from './tickets.service.js';

const NOTHING = {
  valid: false,
  ticket: null,
  booking_status: null,
  date: null,
  checked_in_at: null,
  checked_in_time: null,
} as const;

/**
 * What POST /tickets/verify answers: may this token be checked in now by `organizationId`
 * (null: an operator)? Another organization's ticket is refused with nothing about it.
 */
export async function verifyTicketToken(
  db: Db,
  signer: TicketSigner,
  token: string,
  organizationId: string | null,
  now: Date,
): Promise<TicketVerifyResponse> {
  const resolved = await resolveTicket(db, signer, { token }, now);
  if (!resolved.found) return { ...NOTHING, reason: resolved.reason };
  const { booking } = resolved;
  const reason = assessBooking(booking, organizationId, todayOf(booking, now));
  if (reason === 'WRONG_ORGANIZATION') return { ...NOTHING, reason };
  const record = await findTicketByBooking(db, booking.booking_id);
  const at = booking.checked_in_at;
  return {
    valid: reason === 'OK',
    reason,
    ticket: record?.ticket_code ? await toTicket(signer, record, { reveal: false }) : null,
    booking_status: booking.status,
    date: booking.booking_date,
    checked_in_at: at ? at.toISOString() : null,
    checked_in_time: at ? localTime(at, booking.time_zone) : null,
  };
}
