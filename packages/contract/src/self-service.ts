/** Requests and answers of customer self-service; the rules are in self-service-codes.ts. */
import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';
import {
  CHANGE_BLOCKED_REASONS,
  CUSTOMER_BOOKING_STATUSES,
  CUSTOMER_LOCALES,
} from './self-service-codes.js';
import { ticketSchema } from './tickets.js';
import { isoDateSchema } from './time-schemas.js';

const customerPaymentSchema = z.object({
  payment_id: idSchema,
  status: z.enum(['PENDING', 'SUCCESSFUL', 'FAILED']),
  /** Set when FAILED: DECLINED, EXPIRED, TIMEOUT, CANCELLED_BY_CUSTOMER, ... */
  failure_code: z.string().nullable(),
  /** When an unpaid hold lapses (ISO 8601); null once settled. */
  hold_expires_at: z.string().nullable(),
  ussd_code: z.string().nullable(),
});

/** What the customer sees of their own booking (GET /api/v1/bookings/{bookingId}). */
export const customerBookingSchema = z.object({
  booking_id: idSchema,
  /** Null until the payment succeeds. */
  code: z.string().nullable(),
  status: z.enum(CUSTOMER_BOOKING_STATUSES),
  organization: z.object({
    organization_id: idSchema,
    name: z.string(),
    location: z.string(),
    city: z.string(),
    time_zone: z.string(),
  }),
  service: z.object({
    service_id: idSchema,
    service_name: z.string(),
    /** French name; null when the organization gave none (show the English one). */
    service_name_fr: z.string().nullable(),
    duration: z.number().int(),
  }),
  slot_id: idSchema,
  date: isoDateSchema,
  /** "HH:MM" in the organization's time zone. */
  time: z.string(),
  end_time: z.string(),
  /** The slot's start as an instant (ISO 8601, UTC), for calendars and countdowns. */
  starts_at: z.string(),
  ends_at: z.string(),
  customer_name: z.string(),
  email: z.string(),
  phone: z.string(),
  locale: z.enum(CUSTOMER_LOCALES),
  /** The PDF's content, with the signed token; null unless confirmed or checked in. */
  ticket: ticketSchema.nullable(),
  /** Until when (ISO 8601) the customer may cancel or reschedule. */
  change_deadline: z.string(),
  cutoff_minutes: z.number().int(),
  change_blocked: z.enum(CHANGE_BLOCKED_REASONS).nullable(),
  cancelled_by: z.enum(['customer', 'organization']).nullable(),
  rescheduled_from: z.object({ date: isoDateSchema, time: z.string() }).nullable(),
  payment: customerPaymentSchema.nullable(),
  /**
   * The booking's visit in the same-day queue, once checked in: the ticket page and My
   * bookings follow its turn (GET /visits/{id}?key= with this booking's key). Absent before.
   */
  visit_id: idSchema.optional(),
  /**
   * Present where this site sends WhatsApp (decision 144): whether the customer asked for the
   * turn's messages there (POST /bookings/{id}/whatsapp). Absent: not offered.
   */
  whatsapp_opt_in: z.boolean().optional(),
});
export type CustomerBooking = z.infer<typeof customerBookingSchema>;

/** POST /api/v1/bookings/{id}/whatsapp: the turn's messages by WhatsApp to the booking's number, or not. */
export const bookingWhatsAppRequestSchema = withFieldCodes(z.object({ on: z.boolean() }).strict(), {
  on: 'INVALID_WHATSAPP_OPT_IN',
});
export type BookingWhatsAppRequest = z.infer<typeof bookingWhatsAppRequestSchema>;

export const customerBookingResponseSchema = z.object({ booking: customerBookingSchema });
export type CustomerBookingResponse = z.infer<typeof customerBookingResponseSchema>;

/** POST /api/v1/tickets/{code}/access: the key from a link, or the phone's last 4 digits. */
export const ticketAccessRequestSchema = withFieldCodes(
  z
    .object({
      key: z.string().min(10).max(200).optional(),
      phone_last4: z
        .string()
        .trim()
        .regex(/^\d{4}$/, 'The last four digits of the phone number')
        .optional(),
    })
    .refine((v) => (v.key === undefined) !== (v.phone_last4 === undefined), {
      message: 'Send either the key of a ticket link or the last four digits of the phone number.',
      path: ['phone_last4'],
    }),
  { key: 'INVALID_BOOKING_KEY', phone_last4: 'INVALID_PHONE' },
);
export type TicketAccessRequest = z.input<typeof ticketAccessRequestSchema>;

export const ticketAccessResponseSchema = z.object({
  access_key: z.string(),
  booking: customerBookingSchema,
});
export type TicketAccessResponse = z.infer<typeof ticketAccessResponseSchema>;

/** POST /api/v1/bookings/{bookingId}/reschedule: another free slot of the same service. */
export const rescheduleRequestSchema = withFieldCodes(
  z.object({ slot_id: idSchema, date: isoDateSchema }),
  { slot_id: 'INVALID_ID', date: 'INVALID_DATE' },
);
export type RescheduleRequest = z.input<typeof rescheduleRequestSchema>;
