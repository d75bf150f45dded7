import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';
import { OUTBOX_CHANNELS } from './onboarding.js';

/**
 * What customers' messages cost an organization (issue 35, item 6; decision 143): messages of
 * the range by channel, their estimated cost from the configured prices (not verified against
 * the providers' bills), and the monthly SMS budget past which only free channels are used.
 */
export const insightMessagesSchema = z.object({
  channels: z.array(
    z.object({
      channel: z.enum(OUTBOX_CHANNELS),
      /** Handed to the channel (an SMS to the gateway, a push to its push service). */
      sent: z.number().int(),
      /** Reported delivered: a push the phone showed, an SMS the gateway's report confirmed. */
      delivered: z.number().int(),
      /** SMS not sent because a push before them was shown. */
      spared: z.number().int(),
      /** SMS not sent because the monthly budget was reached. */
      held_by_budget: z.number().int(),
      cost_xaf: z.number(),
    }),
  ),
  cost_xaf: z.number(),
  /** What one SMS is reckoned to cost (MESSAGE_PRICE_SMS_XAF); push and e-mail cost nothing. */
  price_sms_xaf: z.number(),
  /** One branch covered: its budget this month; null when the range covers several. */
  budget: z
    .object({
      organization_id: idSchema,
      monthly_sms_xaf: z.number().int().nullable(),
      /** The month, "2026-11", in the branch's zone. */
      month: z.string(),
      spent_xaf: z.number(),
      reached: z.boolean(),
    })
    .nullable(),
});
export type InsightMessages = z.infer<typeof insightMessagesSchema>;

/** PUT /api/v1/organization/sms-budget (admins): the branch's monthly SMS budget, or none. */
export const smsBudgetRequestSchema = withFieldCodes(
  z
    .object({
      organization_id: idSchema.optional(),
      monthly_sms_xaf: z.number().int().min(0).max(100_000_000).nullable(),
    })
    .strict(),
  { organization_id: 'INVALID_ID', monthly_sms_xaf: 'INVALID_SMS_BUDGET' },
);
export type SmsBudgetRequest = z.infer<typeof smsBudgetRequestSchema>;

export const smsBudgetResponseSchema = z.object({
  organization_id: idSchema,
  monthly_sms_xaf: z.number().int().nullable(),
});
