import { z } from 'zod';
import { withFieldCodes } from './errors.js';
import { isoDateSchema } from './time-schemas.js';

/** What a ticket shows; also what GET /api/v1/tickets/{code} returns. */
export const ticketSchema = z.object({
  code: z.string(),
  /** Signed token encoded in the ticket's QR code; staff verify it on arrival. */
  token: z.string(),
  organization: z.string(),
  location: z.string(),
  service: z.string(),
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

export const ticketResponseSchema = z.object({ ticket: ticketSchema });

export const ticketVerifyRequestSchema = withFieldCodes(
  z.object({ token: z.string().min(1).max(2000) }),
  { token: 'INVALID_TICKET' },
);
export const ticketVerifyResponseSchema = z.object({
  valid: z.boolean(),
  ticket: ticketSchema.nullable(),
  booking_status: z.string().nullable(),
  reason: z.string().nullable(),
});
export type TicketVerifyResponse = z.infer<typeof ticketVerifyResponseSchema>;
