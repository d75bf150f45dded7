import { z } from 'zod';
import { withFieldCodes } from './errors.js';
import { isoDateSchema, wireTimeSchema } from './time-schemas.js';

/** Ids are UUIDs; anything else in a path is a 400 INVALID_ID, never a database error. */
export const idSchema = z.uuid();

const organizationSchema = z.object({
  organization_id: idSchema,
  name: z.string(),
  location: z.string(),
  city: z.string(),
  /** Kind of organization, e.g. "bank", "hospital"; shown as a hint on cards. */
  category: z.string(),
  image_url: z.string().nullable(),
  email: z.string(),
  time_zone: z.string(),
  start_time: wireTimeSchema,
  end_time: wireTimeSchema,
});
export type Organization = z.infer<typeof organizationSchema>;

export const organizationListResponseSchema = z.object({
  organizations: z.array(organizationSchema),
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
export const takenSlotListResponseSchema = z.object({ bookings: z.array(takenSlotSchema) });
export type TakenSlotListResponse = z.infer<typeof takenSlotListResponseSchema>;

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ reachable: z.boolean(), engine: z.enum(['postgres', 'pglite']) }),
});
