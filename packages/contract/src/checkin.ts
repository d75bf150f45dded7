import { z } from 'zod';
import { idSchema } from './catalog.js';
import {
  CHECKIN_REASONS,
  CHECKIN_SYNC_MAX_ITEMS,
  normalizeTicketCode,
  TODAY_BOOKING_STATUSES,
} from './checkin-codes.js';
import { ERROR_CODES } from './error-codes.js';
import { withFieldCodes } from './errors.js';
import { isoDateSchema } from './time-schemas.js';

/**
 * Check-in at the counter: staff and admins scan a ticket's QR token or
 * type its code. Every route here needs a counter session (staff, org_admin or operator).
 */

/** The signed token of a ticket's QR code. */
const tokenSchema = z.string().min(1).max(2000);

/** A typed ticket code in any case, with or without dashes; answered in canonical form. */
const typedCodeSchema = z
  .string()
  .max(40)
  .transform((value, ctx) => {
    const code = normalizeTicketCode(value);
    if (code === null) {
      ctx.addIssue({ code: 'custom', message: 'A ticket code looks like QL-7K4M-2QAB-XC9D.' });
      return z.NEVER;
    }
    return code;
  });

function exactlyOneOf(value: { token?: string | undefined; code?: string | undefined }) {
  return (value.token === undefined) !== (value.code === undefined);
}
const ONE_OF = { message: 'Send either token or code.', path: ['token'] };

/** The public half of the ticket-signing key (a JWK). */
export const ticketPublicKeySchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string(),
  kid: z.string(),
  alg: z.literal('EdDSA'),
  use: z.literal('sig'),
});
export type TicketPublicKey = z.infer<typeof ticketPublicKeySchema>;

/** GET /api/v1/tickets/public-key */
export const ticketPublicKeysResponseSchema = z.object({ keys: z.array(ticketPublicKeySchema) });
export type TicketPublicKeysResponse = z.infer<typeof ticketPublicKeysResponseSchema>;

/** A booking of the day as the check-in screen shows it; nothing it does not need. */
export const checkinBookingSchema = z.object({
  booking_id: idSchema,
  ticket_code: z.string().nullable(),
  cus_name: z.string(),
  service_name: z.string(),
  /** French name of the service, null when it has none. */
  service_name_fr: z.string().nullable(),
  date: isoDateSchema,
  /** "HH:MM", the slot's start in the organization's time zone. */
  time: z.string(),
  status: z.enum(TODAY_BOOKING_STATUSES),
  /** ISO instant of the (first) check-in. */
  checked_in_at: z.string().nullable(),
  /** "HH:MM" of checked_in_at in the organization's time zone. */
  checked_in_time: z.string().nullable(),
});
export type CheckinBooking = z.infer<typeof checkinBookingSchema>;

/** GET /api/v1/organization/today (?organization_id= for operators). */
export const todayResponseSchema = z.object({
  organization: z.object({
    organization_id: idSchema,
    name: z.string(),
    time_zone: z.string(),
  }),
  /** Today in the organization's time zone. */
  date: isoDateSchema,
  /** The server's clock when it answered (ISO instant). */
  server_time: z.string(),
  /** The day's bookings, earliest slot first. */
  bookings: z.array(checkinBookingSchema),
  /** Keys that verify ticket tokens, so the screen can check tickets offline. */
  keys: z.array(ticketPublicKeySchema),
});
export type TodayResponse = z.infer<typeof todayResponseSchema>;

/** POST /api/v1/organization/checkins: a scanned token or a typed code. */
export const checkinRequestSchema = withFieldCodes(
  z
    .object({
      token: tokenSchema.optional(),
      code: typedCodeSchema.optional(),
      /** Operators name the organization they check in for. */
      organization_id: idSchema.optional(),
    })
    .refine(exactlyOneOf, ONE_OF),
  { token: 'INVALID_TICKET', code: 'INVALID_TICKET', organization_id: 'INVALID_ID' },
);
export type CheckinRequest = z.input<typeof checkinRequestSchema>;

export const checkinResponseSchema = z.object({
  result: z.literal('checked_in'),
  booking: checkinBookingSchema,
  /**
   * The queue number to read out, and whether an open counter serves the booking's service
   * (false: staff are warned); null when the booking entered no queue.
   */
  queue: z.object({ number: z.string(), open_counter: z.boolean() }).nullable().optional(),
});
export type CheckinResponse = z.infer<typeof checkinResponseSchema>;

/**
 * A refused check-in or booking action: the error body, whose `code` is the reason, plus
 * what the screen says ("already checked in at 09:58", "this ticket is for 5 March").
 * `booking` is given only for a booking of the caller's organization.
 */
export const checkinRefusalSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  reason: z.enum(CHECKIN_REASONS),
  /** The ticket's date (NOT_TODAY), when it is the caller's organization's ticket. */
  date: isoDateSchema.nullable(),
  checked_in_at: z.string().nullable(),
  checked_in_time: z.string().nullable(),
  booking: checkinBookingSchema.nullable(),
});
export type CheckinRefusal = z.infer<typeof checkinRefusalSchema>;

const syncItemSchema = z
  .object({
    token: tokenSchema.optional(),
    code: typedCodeSchema.optional(),
    /** When the device scanned it (ISO instant, the device's clock). */
    scanned_at: z.iso.datetime({ offset: true }),
    /** Chosen by the device once per scan: a replay of the same scan changes nothing. */
    client_id: idSchema,
  })
  .refine(exactlyOneOf, ONE_OF);
export type CheckinSyncItem = z.input<typeof syncItemSchema>;

/** POST /api/v1/organization/checkins/sync: check-ins made offline, sent when back online. */
export const checkinSyncRequestSchema = withFieldCodes(
  z.object({
    items: z.array(syncItemSchema).min(1).max(CHECKIN_SYNC_MAX_ITEMS),
    organization_id: idSchema.optional(),
  }),
  { items: 'INVALID_TICKET', organization_id: 'INVALID_ID' },
);
export type CheckinSyncRequest = z.input<typeof checkinSyncRequestSchema>;

export const CHECKIN_SYNC_RESULTS = ['checked_in', 'already_checked_in', 'refused'] as const;

export const checkinSyncResultSchema = z.object({
  client_id: idSchema,
  /**
   * checked_in: this scan is the booking's check-in (the earliest one wins);
   * already_checked_in: an earlier scan is (checked_in_at is that first time);
   * refused: see reason.
   */
  result: z.enum(CHECKIN_SYNC_RESULTS),
  reason: z.enum(CHECKIN_REASONS),
  booking_id: idSchema.nullable(),
  ticket_code: z.string().nullable(),
  cus_name: z.string().nullable(),
  date: isoDateSchema.nullable(),
  checked_in_at: z.string().nullable(),
  checked_in_time: z.string().nullable(),
  /** A later scan of the same ticket that this earlier one replaced (a second use of it). */
  replaced_scan_at: z.string().nullable(),
  /**
   * This scan, when it is earlier than a check-in made online: the online one stays
   * (check-ins made at the counter online are never rewritten), the ticket was used twice.
   */
  conflicting_scan_at: z.string().nullable(),
});
export type CheckinSyncResult = z.infer<typeof checkinSyncResultSchema>;

export const checkinSyncResponseSchema = z.object({ results: z.array(checkinSyncResultSchema) });
export type CheckinSyncResponse = z.infer<typeof checkinSyncResponseSchema>;

/** POST /api/v1/organization/bookings/{id}/no-show and …/cancel */
export const bookingActionParamsSchema = withFieldCodes(z.object({ id: idSchema }), {
  id: 'INVALID_ID',
});
export const bookingActionResponseSchema = z.object({ booking: checkinBookingSchema });
export type BookingActionResponse = z.infer<typeof bookingActionResponseSchema>;
