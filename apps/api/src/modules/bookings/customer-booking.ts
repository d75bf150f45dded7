import {
  type CustomerBooking,
  formatMinutes,
  type PaymentStatus,
  zonedInstant,
} from '@qless/contract';
import { timeToMinutes } from '../../db/time-columns.js';
import type { TicketSigner } from '../tickets/tickets.module.js';
import { isTicketValid, toTicket } from '../tickets/tickets.module.js';
import { changeDeadline, customerChangeBlocked, startsAt } from './booking-policy.js';
import type { CustomerBookingRow } from './self-service.repository.js';

export interface LatestPayment {
  id: string;
  status: PaymentStatus;
  failure_code: string | null;
  ussd_code: string | null;
}

const hhmm = (time: string) => formatMinutes(timeToMinutes(time));

/**
 * What the holder of a booking's access key sees: the customer's own data unmasked, the
 * ticket with its signed token once confirmed, the change rules and the latest payment.
 */
export async function toCustomerBooking(
  signer: TicketSigner,
  row: CustomerBookingRow,
  payment: LatestPayment | undefined,
  now: Date,
): Promise<CustomerBooking> {
  const start = startsAt(row);
  const end = zonedInstant(row.booking_date, timeToMinutes(row.end_time), row.time_zone);
  const ticket =
    row.ticket_code && isTicketValid(row.status)
      ? await toTicket(
          signer,
          {
            booking_id: row.booking_id,
            organization_id: row.organization_id,
            status: row.status,
            ticket_code: row.ticket_code,
            booking_date: row.booking_date,
            confirmed_at: row.confirmed_at,
            cus_name: row.cus_name,
            cus_email: row.cus_email,
            phone_number: row.phone_number,
            service_name: row.service_name,
            service_name_fr: row.service_name_fr,
            organization_name: row.organization_name,
            location: row.location,
            time_zone: row.time_zone,
            start_time: row.start_time,
          },
          { reveal: true },
        )
      : null;
  return {
    booking_id: row.booking_id,
    code: row.ticket_code,
    status: row.status,
    organization: {
      organization_id: row.organization_id,
      name: row.organization_name,
      location: row.location,
      city: row.city,
      time_zone: row.time_zone,
    },
    service: {
      service_id: row.service_id,
      service_name: row.service_name,
      service_name_fr: row.service_name_fr,
      duration: row.duration_minutes,
    },
    slot_id: row.slot_id,
    date: row.booking_date,
    time: hhmm(row.start_time),
    end_time: hhmm(row.end_time),
    starts_at: start.toISOString(),
    ends_at: end.toISOString(),
    customer_name: row.cus_name,
    email: row.cus_email,
    phone: row.phone_number,
    locale: row.locale,
    ticket,
    change_deadline: changeDeadline(row).toISOString(),
    cutoff_minutes: row.change_cutoff_minutes,
    change_blocked: customerChangeBlocked(row, now),
    cancelled_by: row.cancelled_by,
    rescheduled_from:
      row.rescheduled_from_date && row.rescheduled_from_time
        ? { date: row.rescheduled_from_date, time: hhmm(row.rescheduled_from_time) }
        : null,
    payment: payment
      ? {
          payment_id: payment.id,
          status: payment.status,
          failure_code: payment.status === 'FAILED' ? payment.failure_code : null,
          hold_expires_at:
            payment.status === 'PENDING' && row.hold_expires_at
              ? row.hold_expires_at.toISOString()
              : null,
          ussd_code: payment.ussd_code,
        }
      : null,
    ...(row.visit_id ? { visit_id: row.visit_id } : {}),
  };
}
