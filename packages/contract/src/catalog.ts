import { z } from 'zod';
import { MAX_SEARCH_LENGTH } from './catalog-search.js';
import { withFieldCodes } from './errors.js';
import { isoDateSchema, wireTimeSchema } from './time-schemas.js';

/** Ids are UUIDs; anything else in a path is a 400 INVALID_ID, never a database error. */
export const idSchema = z.uuid();

export const organizationSchema = z.object({
  organization_id: idSchema,
  name: z.string(),
  location: z.string(),
  city: z.string(),
  /** Kind of organization, e.g. "bank", "hospital"; shown as a hint on cards. */
  category: z.string(),
  image_url: z.string().nullable(),
  /** The contact e-mail the organization published; '' when it published none. */
  email: z.string(),
  time_zone: z.string(),
  start_time: wireTimeSchema,
  end_time: wireTimeSchema,
  /** Branches (decision 024): the branch's own name ("Akwa"), null for a one-place organization. */
  branch_name: z.string().nullable(),
  /** The head of its organization when this is one of its other branches; null for a head. */
  parent_id: idSchema.nullable(),
  /** In the catalogue list: how many listed branches the organization has (1 for most). */
  branch_count: z.number().int().optional(),
  /** In the catalogue list: the cities of its listed branches, when more than one branch. */
  branch_cities: z.array(z.string()).optional(),
});
export type Organization = z.infer<typeof organizationSchema>;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * `GET /organizations` with any of these answers one page of the organizations matching
 * `q` (accent- and case-insensitive, over name, city and category; see catalog-search.ts)
 * with the total; without them, the whole list as the spec's client reads it.
 */
export const organizationSearchQuerySchema = withFieldCodes(
  z.object({
    q: z
      .string()
      .max(MAX_SEARCH_LENGTH)
      // Control characters (NUL above all, which PostgreSQL cannot take) and unpaired
      // surrogates are never part of a name.
      .refine((v) => !/[\p{Cc}]/u.test(v) && !LONE_SURROGATE.test(v), 'Not a search text')
      .optional(),
    page: z.coerce.number().int().min(1).max(10_000).optional(),
    page_size: z.coerce.number().int().min(1).max(100).optional(),
  }),
  { q: 'INVALID_QUERY', page: 'INVALID_PAGE', page_size: 'INVALID_PAGE' },
);
export type OrganizationSearchQuery = z.infer<typeof organizationSearchQuerySchema>;

export const organizationListResponseSchema = z.object({
  organizations: z.array(organizationSchema),
  /** Only for a search (q, page or page_size given): all matches, this page, its size. */
  total: z.number().int().optional(),
  page: z.number().int().optional(),
  page_size: z.number().int().optional(),
});
export type OrganizationListResponse = z.infer<typeof organizationListResponseSchema>;

export const organizationResponseSchema = z.object({ organization: organizationSchema });
export type OrganizationResponse = z.infer<typeof organizationResponseSchema>;

const serviceSchema = z.object({
  service_id: idSchema,
  service_name: z.string(),
  service_description: z.string(),
  /** Minutes. */
  duration: z.number().int(),
  /** How many customers one slot takes on a date. */
  capacity: z.number().int(),
  organization_id: idSchema,
  /** French name and description; null when the organization gave none. */
  service_name_fr: z.string().nullable(),
  service_description_fr: z.string().nullable(),
});
export type Service = z.infer<typeof serviceSchema>;

export const serviceListResponseSchema = z.object({ services: z.array(serviceSchema) });
export type ServiceListResponse = z.infer<typeof serviceListResponseSchema>;

/** One service with its organization, so a deep link needs a single call. */
export const serviceResponseSchema = z.object({
  service: serviceSchema,
  organization: organizationSchema,
});
export type ServiceResponse = z.infer<typeof serviceResponseSchema>;

const slotSchema = z.object({
  id: idSchema,
  service_id: idSchema,
  start_time: wireTimeSchema,
  end_time: wireTimeSchema,
});
export type Slot = z.infer<typeof slotSchema>;

export const slotListResponseSchema = z.object({
  slots: z.array(slotSchema),
  /** Days of the week the organization opens, 0 = Sunday, ascending; other days are closed. */
  open_days: z.array(z.number().int().min(0).max(6)),
  /** Dates it is closed (holidays) within the booking horizon, ascending. */
  closures: z.array(isoDateSchema),
  /** Today in the organization's time zone (the first day a customer can book). */
  today: isoDateSchema,
  /** The last date a customer can book: today + BOOKING_HORIZON_DAYS in that zone. */
  bookable_until: isoDateSchema,
});
export type SlotListResponse = z.infer<typeof slotListResponseSchema>;

export const bookingsRangeQuerySchema = withFieldCodes(
  z.object({ start: isoDateSchema, end: isoDateSchema }),
  { start: 'INVALID_DATE', end: 'INVALID_DATE' },
);

/** Public: only what the slot view needs to grey out full slots. No customer data. */
const takenSlotSchema = z.object({
  booking_date: isoDateSchema,
  slot_id: idSchema,
});
/** How many seats of a slot on a date are taken (held or booked): counts, never who. */
const seatsTakenSchema = z.object({
  booking_date: isoDateSchema,
  slot_id: idSchema,
  taken: z.number().int().min(1),
});
export const takenSlotListResponseSchema = z.object({
  /** The spec's list: slot-dates with no seat left. */
  bookings: z.array(takenSlotSchema),
  /** Every slot-date with at least one seat taken, so a view can say how many are left. */
  seats_taken: z.array(seatsTakenSchema),
});
export type TakenSlotListResponse = z.infer<typeof takenSlotListResponseSchema>;

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ reachable: z.boolean(), engine: z.enum(['postgres', 'pglite']) }),
});

/** GET /health/live: the process runs its event loop (no database involved). */
export const livenessResponseSchema = z.object({ status: z.literal('ok') });

/**
 * GET /health/ready: 200 `ready`, or 503 `unavailable` with the reason (a process draining
 * after SIGTERM, or a database that did not answer within the ping timeout).
 */
export const readinessResponseSchema = z.object({
  status: z.enum(['ready', 'unavailable']),
  reason: z.enum(['draining', 'database_unreachable']).nullable(),
});
export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;
