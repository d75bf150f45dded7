import { z } from 'zod';
import { CHECKIN_REASONS } from './checkin-codes.js';
import { withFieldCodes } from './errors.js';
import { isoDateSchema } from './time-schemas.js';

/** What a ticket shows: given to the payer (payment status) and to staff verifying its token. */
export const ticketSchema = z.object({
  code: z.string(),
  /** Signed token encoded in the ticket's QR code; staff verify it on arrival. */
  token: z.string(),
  organization: z.string(),
  location: z.string(),
  /** The service's base name; `service_fr` its French one (null: none written). */
  service: z.string(),
  service_fr: z.string().nullable(),
  date: isoDateSchema,
  /** "HH:MM" in the organization's time zone. */
  time: z.string(),
  time_zone: z.string(),
  customer_name: z.string(),
  /** Masked unless returned to the payer right after payment. */
  email: z.string(),
  phone: z.string(),
});
export type Ticket = z.infer<typeof ticketSchema>;

/**
 * What GET /api/v1/tickets/{code} answers to whoever holds a code: where and when, and
 * whether the ticket stands. Nothing personal and never the signed token, because a code
 * is printed, read aloud and shown on screens.
 */
export const ticketLookupSchema = z.object({
  code: z.string(),
  organization: z.string(),
  location: z.string(),
  /** The service's base name; `service_fr` its French one (null: none written). */
  service: z.string(),
  service_fr: z.string().nullable(),
  date: isoDateSchema,
  /** "HH:MM" in the organization's time zone. */
  time: z.string(),
  time_zone: z.string(),
  /** The booking's state: "confirmed" or "checked_in" (other states answer 404). */
  status: z.enum(['confirmed', 'checked_in']),
});
export type TicketLookup = z.infer<typeof ticketLookupSchema>;

export const ticketLookupResponseSchema = z.object({ ticket: ticketLookupSchema });

export const ticketVerifyRequestSchema = withFieldCodes(
  z.object({ token: z.string().min(1).max(2000) }),
  { token: 'INVALID_TICKET' },
);
/**
 * POST /api/v1/tickets/verify (a counter session): read-only. `valid` is true when the
 * ticket may be checked in now (reason OK). `ticket` is null for another organization's.
 */
export const ticketVerifyResponseSchema = z.object({
  valid: z.boolean(),
  reason: z.enum(CHECKIN_REASONS),
  ticket: ticketSchema.nullable(),
  booking_status: z.string().nullable(),
  /** The ticket's date; null when unknown or another organization's. */
  date: isoDateSchema.nullable(),
  checked_in_at: z.string().nullable(),
  /** "HH:MM" of checked_in_at in the organization's time zone. */
  checked_in_time: z.string().nullable(),
});
export type TicketVerifyResponse = z.infer<typeof ticketVerifyResponseSchema>;
