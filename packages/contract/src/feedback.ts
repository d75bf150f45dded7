import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';
import { FEEDBACK_COMMENT_MAX } from './feedback-codes.js';
import { CUSTOMER_LOCALES } from './self-service-codes.js';
import { isoDateSchema } from './time-schemas.js';

/**
 * A word after the visit. Public routes whose credential is the link's
 * token (`/api/v1/feedback/{token}`): a forged or altered token answers 404
 * FEEDBACK_LINK_INVALID, an expired one 410 FEEDBACK_LINK_EXPIRED, a second answer 409
 * FEEDBACK_ALREADY_GIVEN. Insight reads the summary (feedbackSummarySchema).
 */

/**
 * What a comment may not hold: control characters other than tab and line breaks (NUL above
 * all, which PostgreSQL text cannot take) and unpaired surrogates (no character at all).
 */
const NOT_TEXT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters refused.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The token as it travels in the path; its form and signature are checked by the server. */
export const feedbackParamsSchema = withFieldCodes(z.object({ token: z.string().max(200) }), {
  token: 'FEEDBACK_LINK_INVALID',
});

/** GET /api/v1/feedback/{token}: what the page asks about, and whether it was answered. */
export const feedbackInfoResponseSchema = z.object({
  organization_name: z.string(),
  service_name: z.string(),
  service_name_fr: z.string().nullable(),
  /** The organization's day of the visit (yyyy-MM-dd). */
  visit_date: isoDateSchema,
  /** The visit's language (the SMS's): the page's language unless the reader chose one. */
  locale: z.enum(CUSTOMER_LOCALES),
  /** The link stops working then (ISO instant). */
  expires_at: z.string(),
  /** Already answered: the page thanks instead of asking. */
  given: z.boolean(),
});
export type FeedbackInfo = z.infer<typeof feedbackInfoResponseSchema>;

/** POST /api/v1/feedback/{token}: a rating of 1 to 5 and, if they wish, a few words. */
export const feedbackRequestSchema = withFieldCodes(
  z.object({
    rating: z.number().int().min(1).max(5),
    comment: z
      .string()
      .max(FEEDBACK_COMMENT_MAX * 4)
      .optional()
      .nullable()
      .transform((v, ctx) => {
        const text = v?.trim() ?? '';
        if (text === '') return null;
        if (NOT_TEXT.test(text)) {
          ctx.addIssue({ code: 'custom', message: 'Plain text only' });
          return z.NEVER;
        }
        if ([...text].length > FEEDBACK_COMMENT_MAX) {
          ctx.addIssue({
            code: 'custom',
            message: `At most ${FEEDBACK_COMMENT_MAX} characters`,
          });
          return z.NEVER;
        }
        return text;
      }),
  }),
  { rating: 'INVALID_RATING', comment: 'INVALID_COMMENT' },
);
export type FeedbackRequest = z.input<typeof feedbackRequestSchema>;
export const feedbackResponseSchema = z.object({ given: z.literal(true) });

/** What Insight shows of the answers over a period (dates are the visits' days). */
export const feedbackSummarySchema = z.object({
  count: z.number().int().nonnegative(),
  /** One decimal; null when nobody answered. */
  average: z.number().nullable(),
  distribution: z.object({
    1: z.number().int().nonnegative(),
    2: z.number().int().nonnegative(),
    3: z.number().int().nonnegative(),
    4: z.number().int().nonnegative(),
    5: z.number().int().nonnegative(),
  }),
  /** The latest comments first, at most FEEDBACK_SUMMARY_COMMENTS; plain text, never HTML. */
  comments: z.array(
    z.object({
      rating: z.number().int().min(1).max(5),
      comment: z.string(),
      date: isoDateSchema,
      organization_id: idSchema,
      service_id: idSchema,
      service: z.string(),
      service_fr: z.string().nullable(),
    }),
  ),
});
export type FeedbackSummary = z.infer<typeof feedbackSummarySchema>;
