import { z } from 'zod';
import { idSchema } from './catalog.js';
import { PAYMENT_STATUSES } from './constants.js';
import { withFieldCodes } from './errors.js';
import { PROVIDER_NAMES } from './payment-outcomes.js';
import { normalizeCameroonMobile } from './phone.js';
import { CUSTOMER_LOCALES } from './self-service-codes.js';
import { ticketSchema } from './tickets.js';
import { isoDateSchema } from './time-schemas.js';

const paymentStatusSchema = z.enum(PAYMENT_STATUSES);

/**
 * The spec's client sends amount as a string such as " 2 " and the phone as "+237" + 9
 * digits. The server checks amount and currency against its own price; it never trusts them.
 */
export const paymentInitiateRequestSchema = withFieldCodes(
  z.object({
    cus_name: z.string().trim().min(1, 'Name is required').max(100),
    /**
     * Optional (decision 121): most customers have no e-mail and every message reaches them
     * by SMS. Missing, null and '' all mean none and come out as '' (the column's "none").
     */
    cus_email: z
      .string()
      .trim()
      .max(254)
      .pipe(z.union([z.literal(''), z.email('Enter a valid email address')]))
      .nullish()
      .transform((v) => v ?? ''),
    phone_number: z
      .string()
      .max(30)
      .transform((v, ctx) => {
        const normalized = normalizeCameroonMobile(v);
        if (!normalized) {
          ctx.addIssue({
            code: 'custom',
            message: 'Enter a Cameroonian mobile number: 9 digits starting with 6',
          });
          return z.NEVER;
        }
        return normalized;
      }),
    amount: z.union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d+(\.\d+)?$/)
        .transform(Number),
    ]),
    currency: z.string().trim().max(10),
    description: z.string().trim().max(200).optional(),
    /** Client-generated idempotency key. */
    reference: z
      .string()
      .trim()
      .min(8)
      .max(100)
      .regex(/^[A-Za-z0-9_.:-]+$/, 'Letters, digits, and _ . : - only'),
    service_id: idSchema,
    slot_id: idSchema,
    date: isoDateSchema,
    /** The customer's language for messages about this booking (default en). */
    locale: z.enum(CUSTOMER_LOCALES).optional(),
  }),
  {
    cus_name: 'INVALID_NAME',
    cus_email: 'INVALID_EMAIL',
    phone_number: 'INVALID_PHONE',
    amount: 'INVALID_AMOUNT',
    currency: 'INVALID_CURRENCY',
    description: 'INVALID_DESCRIPTION',
    reference: 'INVALID_REFERENCE',
    service_id: 'INVALID_ID',
    slot_id: 'INVALID_ID',
    date: 'INVALID_DATE',
    locale: 'INVALID_LOCALE',
  },
);
export type PaymentInitiateRequest = z.input<typeof paymentInitiateRequestSchema>;
export type PaymentInitiateInput = z.output<typeof paymentInitiateRequestSchema>;

const paymentSchema = z.object({
  payment_id: idSchema,
  status: paymentStatusSchema,
  booking_id: idSchema,
  amount: z.number(),
  currency: z.string(),
  provider: z.enum(PROVIDER_NAMES),
  /** When the hold on the slot lapses if the payment has not succeeded (ISO 8601). */
  hold_expires_at: z.string(),
  /** USSD code the customer can dial to approve, when the provider gives one. */
  ussd_code: z.string().nullable(),
  operator: z.string().nullable(),
  /**
   * The booking's access key (see self-service.ts): the device that booked keeps it to show
   * the ticket later, resume this payment, or cancel it while PENDING.
   */
  access_key: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const paymentResponseSchema = z.object({ payment: paymentSchema });
export type PaymentResponse = z.infer<typeof paymentResponseSchema>;

/** Each message of the status WebSocket, and the body of GET /api/v1/payment/{id}. */
export const paymentStatusMessageSchema = z.object({
  status: paymentStatusSchema,
  booking_id: idSchema.nullable(),
  ticket: ticketSchema.nullable(),
  /** Set for FAILED: a stable reason code the client can translate. */
  failure_code: z.string().nullable().optional(),
});
export type PaymentStatusMessage = z.infer<typeof paymentStatusMessageSchema>;
