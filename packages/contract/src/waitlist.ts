import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';
import { normalizeCameroonMobile } from './phone.js';
import { CUSTOMER_LOCALES } from './self-service-codes.js';
import { isoDateSchema } from './time-schemas.js';
import { WAITLIST_STATES } from './waitlist-codes.js';

/**
 * The waitlist for full days (decision 023). Public: a phone number waits for a
 * seat of a service on a day whose every seat is taken; a freed seat is offered to the
 * first in line by one SMS. Joining sends nothing.
 */

/** POST /api/v1/service/{serviceId}/waitlist. */
export const waitlistJoinRequestSchema = withFieldCodes(
  z.object({
    date: isoDateSchema,
    phone: z
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
    locale: z.enum(CUSTOMER_LOCALES).optional(),
  }),
  { date: 'INVALID_DATE', phone: 'INVALID_PHONE', locale: 'INVALID_LOCALE' },
);
export type WaitlistJoinRequest = z.input<typeof waitlistJoinRequestSchema>;

export const waitlistEntrySchema = z.object({
  entry_id: idSchema,
  service_id: idSchema,
  date: isoDateSchema,
  state: z.enum(WAITLIST_STATES),
  /**
   * 1 = next to be offered a seat; null once the entry no longer waits, and always null in a
   * join's answer (decision 124: a place would tell a waiting number from a new one).
   */
  position: z.number().int().positive().nullable(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;

/**
 * 201 with the entry and the key that withdraws it (shown once). A number that already waits
 * for this day gets the same answer, field by field (decision 124): a new entry id, state
 * `waiting`, no place; its key answers a withdraw as a new entry's does but takes nothing off
 * (only the first join's does: a stranger who types someone's number can neither learn of
 * nor end their entry). `already_waiting` is always false, kept for clients of the first
 * version.
 */
export const waitlistJoinResponseSchema = z.object({
  entry: waitlistEntrySchema,
  already_waiting: z.boolean(),
  withdraw_key: z.string().nullable(),
  /** How long an offer of a freed seat stays open: the organization's setting (minutes). */
  offer_minutes: z.number().int().positive(),
});
export type WaitlistJoinResponse = z.infer<typeof waitlistJoinResponseSchema>;

/**
 * DELETE /api/v1/service/{serviceId}/waitlist/{entryId} with the key in `X-Waitlist-Key`
 * (decision 124); an older client's `?key=…` is still accepted.
 */
export const waitlistWithdrawParamsSchema = withFieldCodes(
  z.object({ serviceId: idSchema, entryId: idSchema }),
  { serviceId: 'INVALID_ID', entryId: 'INVALID_ID' },
);
export const waitlistWithdrawQuerySchema = withFieldCodes(
  z.object({ key: z.string().min(20).max(100).optional() }),
  { key: 'WAITLIST_ENTRY_NOT_FOUND' },
);
export const waitlistWithdrawResponseSchema = z.object({ entry: waitlistEntrySchema });
