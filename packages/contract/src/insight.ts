import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';
import { feedbackSummarySchema } from './feedback.js';
import { INSIGHT_EXPORT_FORMATS, INSIGHT_EXPORT_KINDS } from './insight-limits.js';
import { insightMessagesSchema } from './insight-messages.js';
import { CALL_REASONS } from './queue-routing.js';
import { isoDateSchema } from './time-schemas.js';

/**
 * Insight: what an organization's visits and bookings add up to over a range of
 * days, per branch, service and counter, and the CSV export of the rows. Admin routes.
 * Days are the organization's own (visits.visit_date, bookings.booking_date); hours of the
 * heat map are in the organization's time zone.
 */

export const insightQuerySchema = withFieldCodes(
  z.object({
    from: isoDateSchema,
    to: isoDateSchema,
    organization_id: idSchema.optional(),
    service_id: idSchema.optional(),
    counter_id: idSchema.optional(),
  }),
  {
    from: 'INVALID_DATE',
    to: 'INVALID_DATE',
    organization_id: 'INVALID_ID',
    service_id: 'INVALID_ID',
    counter_id: 'INVALID_ID',
  },
);
export type InsightQuery = z.infer<typeof insightQuerySchema>;

export const insightExportQuerySchema = withFieldCodes(
  z.object({
    kind: z.enum(INSIGHT_EXPORT_KINDS),
    from: isoDateSchema,
    to: isoDateSchema,
    organization_id: idSchema.optional(),
    /** The screen's filters: the file holds the rows behind the figures shown. */
    service_id: idSchema.optional(),
    /** Visits only (a booking has no counter): the bookings file ignores it. */
    counter_id: idSchema.optional(),
    /**
     * `csv` (the default): RFC 4180, commas, English headers and values. `excel-fr` (decision
     * 122): for Excel set to French — ";", French headers and labels, French service names,
     * decimal comma, and a column that explains a transfer.
     */
    format: z.enum(INSIGHT_EXPORT_FORMATS).optional(),
  }),
  {
    kind: 'INVALID_QUERY',
    format: 'INVALID_QUERY',
    from: 'INVALID_DATE',
    to: 'INVALID_DATE',
    organization_id: 'INVALID_ID',
    service_id: 'INVALID_ID',
    counter_id: 'INVALID_ID',
  },
);
export type InsightExportQuery = z.infer<typeof insightExportQuerySchema>;

/** Minutes, median and 90th percentile over `count` visits; null when none. */
const durationSchema = z.object({
  count: z.number().int(),
  median: z.number().nullable(),
  p90: z.number().nullable(),
});
export type InsightDuration = z.infer<typeof durationSchema>;

/**
 * Counts of one slice (everything, a day, a service, a branch).
 * - visits: people who entered the queue (a transfer's second line is not a second visit);
 *   booked = entered from a booking, walk_in = added by staff or joined from the poster;
 * - served: visits done; no_show_visits: called and never came; left: still open at closing;
 * - no_show_bookings: confirmed bookings never checked in (marked no-show); cancelled_bookings:
 *   bookings of a day in the range cancelled by the customer or the organization;
 * - no_show_rate = (no_show_visits + no_show_bookings) / (visits + no_show_bookings).
 * Booking figures are null when a counter is chosen (a booking has no counter).
 */
const countsSchema = z.object({
  visits: z.number().int(),
  booked: z.number().int(),
  walk_in: z.number().int(),
  served: z.number().int(),
  no_show_visits: z.number().int(),
  left: z.number().int(),
  no_show_bookings: z.number().int().nullable(),
  cancelled_bookings: z.number().int().nullable(),
  no_show_rate: z.number().nullable(),
});
export type InsightCounts = z.infer<typeof countsSchema>;

export const insightResponseSchema = z.object({
  range: z.object({ from: isoDateSchema, to: isoDateSchema, days: z.number().int() }),
  filters: z.object({ service_id: idSchema.nullable(), counter_id: idSchema.nullable() }),
  /** The branches covered (one today; a group's admin will see several). */
  branches: z.array(
    z.object({
      id: idSchema,
      /** "Banque … (Akwa)": the organization's name and the branch's (decision 024). */
      name: z.string(),
      branch_name: z.string().nullable(),
      time_zone: z.string(),
    }),
  ),
  /** What the filters may choose from, in the branches covered. */
  options: z.object({
    services: z.array(
      z.object({
        id: idSchema,
        organization_id: idSchema,
        name: z.string(),
        name_fr: z.string().nullable(),
      }),
    ),
    counters: z.array(
      z.object({
        id: idSchema,
        organization_id: idSchema,
        name: z.string(),
        retired: z.boolean(),
      }),
    ),
  }),
  totals: countsSchema.extend({
    /** Wait in line: queued (arrival, or the transfer into this line) → called, minutes. */
    wait_minutes: durationSchema,
    /** At the counter: called → done, minutes (visits done only). */
    service_minutes: durationSchema,
  }),
  /** Arrivals per ISO weekday (1 = Monday … 7 = Sunday) and hour (0–23), branch time; no zeros. */
  heat_map: z.array(
    z.object({
      weekday: z.number().int().min(1).max(7),
      hour: z.number().int().min(0).max(23),
      arrivals: z.number().int(),
    }),
  ),
  /** Every day of the range, zeros included. */
  daily: z.array(
    z.object({
      date: isoDateSchema,
      visits: z.number().int(),
      served: z.number().int(),
      no_shows: z.number().int(),
      median_wait_minutes: z.number().nullable(),
    }),
  ),
  /** Counters that served someone in the range, busiest first. */
  counters: z.array(
    z.object({
      counter_id: idSchema,
      organization_id: idSchema,
      name: z.string(),
      served: z.number().int(),
      median_service_minutes: z.number().nullable(),
    }),
  ),
  /**
   * Clerks who served or called someone in the range (decision 139), busiest first: visits they
   * finished (the last Done of each visit), their median time with a visitor (called → done),
   * and their calls out of turn.
   */
  clerks: z.array(
    z.object({
      user_id: idSchema,
      organization_id: idSchema,
      name: z.string(),
      served: z.number().int(),
      median_service_minutes: z.number().nullable(),
      out_of_order_calls: z.number().int(),
    }),
  ),
  /**
   * The calls out of turn of the range, newest first (at most INSIGHT_OUT_OF_ORDER_ROWS): each
   * with its day, clerk, counter, number and reason. Taken back by Undo or not: they were made.
   */
  out_of_order_calls: z.array(
    z.object({
      date: isoDateSchema,
      at: z.string(),
      organization_id: idSchema,
      user_id: idSchema.nullable(),
      clerk_name: z.string().nullable(),
      counter_name: z.string().nullable(),
      number: z.string(),
      reason: z.enum(CALL_REASONS),
      undone: z.boolean(),
    }),
  ),
  services: z.array(
    countsSchema.extend({
      service_id: idSchema,
      organization_id: idSchema,
      name: z.string(),
      name_fr: z.string().nullable(),
      median_wait_minutes: z.number().nullable(),
      median_service_minutes: z.number().nullable(),
    }),
  ),
  by_branch: z.array(
    countsSchema.extend({
      organization_id: idSchema,
      name: z.string(),
      median_wait_minutes: z.number().nullable(),
      median_service_minutes: z.number().nullable(),
    }),
  ),
  /**
   * A word after the visit (visit_feedback, migration 017): count, average, each rating's
   * count and the latest comments of the visits of the range (feedbackSummary of the feedback
   * module, decision 026). Comments are plain text: show them as text, never as HTML.
   */
  feedback: feedbackSummarySchema,
  /** Customers' messages of the range by channel, their cost and the SMS budget (decision 143). */
  messages: insightMessagesSchema,
});
export type InsightResponse = z.infer<typeof insightResponseSchema>;
