import { z } from 'zod';
import { emailSchema } from './auth.js';
import { withFieldCodes } from './errors.js';

/**
 * Personal data (decision 031). Operators export and erase what is held
 * about one phone number or e-mail address (GET /api/v1/platform/personal-data,
 * POST /api/v1/platform/personal-data/erase); the privacy page reads how long things are
 * kept (GET /api/v1/privacy). Exactly one of phone and email: INVALID_QUERY / INVALID_BODY.
 */

/** A phone as typed (any form normalizeCameroonMobile takes; checked by the route). */
const phoneInput = z.string().trim().min(1).max(40);

export const personalDataQuerySchema = withFieldCodes(
  z.object({ phone: phoneInput.optional(), email: emailSchema.optional() }),
  { phone: 'INVALID_PHONE', email: 'INVALID_EMAIL' },
);
export type PersonalDataQuery = z.input<typeof personalDataQuerySchema>;

export const personalDataEraseSchema = withFieldCodes(
  z.object({
    phone: phoneInput.optional(),
    email: emailSchema.optional(),
    /** Must be true: the erasure cannot be undone. */
    confirm: z.literal(true, 'Confirm the erasure with confirm: true'),
  }),
  { phone: 'INVALID_PHONE', email: 'INVALID_EMAIL', confirm: 'CONFIRMATION_REQUIRED' },
);
export type PersonalDataErase = z.input<typeof personalDataEraseSchema>;

export const PERSONAL_DATA_KINDS = [
  'bookings',
  'payments',
  'payment_events',
  'visits',
  'waitlist_entries',
  'messages',
  'contact_requests',
  'feedback_comments',
] as const;
export type PersonalDataKind = (typeof PERSONAL_DATA_KINDS)[number];

const countsSchema = z.object(
  Object.fromEntries(PERSONAL_DATA_KINDS.map((k) => [k, z.number().int()])) as Record<
    PersonalDataKind,
    z.ZodNumber
  >,
);

export const personalDataEraseResponseSchema = z.object({
  /** The subject as matched (E.164 phone or lower-case e-mail). */
  subject: z.object({ phone: z.string().nullable(), email: z.string().nullable() }),
  erased: countsSchema,
  /** Waitlist entries still waiting or offered, taken off the list before being erased. */
  withdrawn_waitlist_entries: z.number().int(),
});
export type PersonalDataEraseResponse = z.infer<typeof personalDataEraseResponseSchema>;

const row = z.record(z.string(), z.unknown());

/** The export: every row held about the subject, as stored (times as ISO instants). */
export const personalDataExportSchema = z.object({
  subject: z.object({ phone: z.string().nullable(), email: z.string().nullable() }),
  generated_at: z.string(),
  /** PERSONAL_DATA_RETENTION_DAYS: finished things are erased this many days after. */
  retention_days: z.number().int(),
  bookings: z.array(row),
  payments: z.array(row),
  payment_events: z.array(row),
  visits: z.array(row),
  feedback: z.array(row),
  waitlist_entries: z.array(row),
  messages: z.array(row),
  contact_requests: z.array(row),
  /** Phones subscribed to web push for these bookings and visits (endpoint, dates). */
  push_subscriptions: z.array(row),
});
export type PersonalDataExport = z.infer<typeof personalDataExportSchema>;

/** GET /api/v1/privacy: the periods the privacy page states, from the server's settings. */
export const privacyInfoSchema = z.object({
  /** Customers' data of finished bookings, visits, waitlist entries and messages. */
  retention_days: z.number().int(),
  /** The audit log of staff's, admins' and operators' actions. */
  audit_retention_days: z.number().int(),
});
export type PrivacyInfo = z.infer<typeof privacyInfoSchema>;
