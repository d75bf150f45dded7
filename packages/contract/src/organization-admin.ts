import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';
import { MAX_CHANGE_CUTOFF_MINUTES } from './self-service-codes.js';
import { isoDateSchema, wireTimeSchema } from './time-schemas.js';
import { WAITLIST_HOLD_MINUTES } from './waitlist-codes.js';

/**
 * The organization area's API: what an admin reads and changes about its own
 * organization. Operators, who belong to none, name the organization with `organization_id`.
 */

/** "HH:MM" or "HH:MM:SS" (the spec's form says the latter; people type the former). */
export const timeOfDayInputSchema = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'Use the form HH:MM or HH:MM:SS, e.g. 08:00');

/** Day of the week, 0 = Sunday (the spec's week starts on Sunday). */
export const weekdaySchema = z.number().int().min(0).max(6);

export const closureSchema = z.object({
  date: isoDateSchema,
  reason: z.string(),
});
export type Closure = z.infer<typeof closureSchema>;

/** What must be filled in before an organization can be listed publicly. */
export const PROFILE_REQUIRED_FIELDS = ['name', 'location', 'city', 'category'] as const;

/**
 * What keeps an organization's profile incomplete: an empty required field, or opening days
 * its admin has not confirmed yet (an organization made from a contact request starts
 * Monday to Friday, and is not listed until its admin has saved the days).
 */
export const PROFILE_MISSING_ITEMS = [...PROFILE_REQUIRED_FIELDS, 'open_days'] as const;
export type ProfileMissingItem = (typeof PROFILE_MISSING_ITEMS)[number];

/** Monday to Friday: the days a new organization opens until its admin says otherwise. */
export const DEFAULT_OPEN_DAYS = [1, 2, 3, 4, 5] as const;

export const organizationProfileSchema = z.object({
  organization_id: idSchema,
  name: z.string(),
  location: z.string(),
  city: z.string(),
  category: z.string(),
  /** Read-only here: the sign-in identity of the organization (never shown to customers). */
  email: z.string(),
  /** The contact e-mail customers see; null: none published. */
  public_email: z.string().nullable(),
  image_url: z.string().nullable(),
  time_zone: z.string(),
  start_time: wireTimeSchema,
  end_time: wireTimeSchema,
  /** "HH:MM" forms of start_time and end_time, in the organization's time zone. */
  opens_at: z.string(),
  closes_at: z.string(),
  /** Days of the week it opens, 0 = Sunday, ascending. */
  open_days: z.array(weekdaySchema),
  /** Dates it is closed (holidays), from today on, ascending. */
  closures: z.array(closureSchema),
  /** An operator has verified it. */
  verified: z.boolean(),
  /** Required profile fields still empty, and `open_days` until the days are confirmed. */
  missing_fields: z.array(z.enum(PROFILE_MISSING_ITEMS)),
  /** Verified, active and complete: customers can find it. */
  listed: z.boolean(),
  /** Customers may cancel or reschedule until this many minutes before their slot. */
  change_cutoff_minutes: z.number().int(),
  /** How long a waitlist offer of a freed seat stays open (minutes, 5–120; decision 023). */
  waitlist_hold_minutes: z.number().int(),
});
export type OrganizationProfile = z.infer<typeof organizationProfileSchema>;

export const adminServiceSchema = z.object({
  service_id: idSchema,
  organization_id: idSchema,
  service_name: z.string(),
  service_description: z.string(),
  /** French name and description; null falls back to the English ones. */
  service_name_fr: z.string().nullable(),
  service_description_fr: z.string().nullable(),
  /** Minutes. */
  duration: z.number().int(),
  capacity: z.number().int(),
  active: z.boolean(),
});
export type AdminService = z.infer<typeof adminServiceSchema>;

export const ADMIN_BOOKING_STATUSES = [
  'held',
  'confirmed',
  'checked_in',
  'no_show',
  'cancelled',
  'expired',
] as const;

/**
 * Why an upcoming booking is flagged after a change by the organization (stable values;
 * screens translate them). Cleared again when a later change makes the booking fit.
 */
export const ATTENTION_REASONS = [
  /** Its service was deactivated. */
  'service_inactive',
  /** Its date became a closure (holiday). */
  'closure',
  /** Its day of the week is no longer an open day. */
  'closed_day',
  /** Its slot lies outside the new opening hours. */
  'outside_hours',
  /** Its slot is no longer generated (the service's duration changed). */
  'slot_changed',
] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];

export const adminBookingSchema = z.object({
  booking_id: idSchema,
  booking_date: isoDateSchema,
  slot_id: idSchema,
  start_time: wireTimeSchema,
  /** "HH:MM" in the organization's time zone. */
  time: z.string(),
  service_id: idSchema,
  service_name: z.string(),
  /** French name; null when the organization wrote none. */
  service_name_fr: z.string().nullable(),
  cus_name: z.string(),
  cus_email: z.string(),
  phone_number: z.string(),
  status: z.enum(ADMIN_BOOKING_STATUSES),
  ticket_code: z.string().nullable(),
  /** ISO instant of the first check-in. */
  checked_in_at: z.string().nullable(),
  /** Why the admin should look at it, e.g. the new hours no longer include its slot. */
  attention_reason: z.string().nullable(),
  /** Who cancelled it (null unless cancelled, or a payment that did not go through). */
  cancelled_by: z.enum(['customer', 'organization']).nullable(),
  /** Where the customer's last reschedule moved it from ("HH:MM" local time). */
  rescheduled_from: z.object({ date: isoDateSchema, time: z.string() }).nullable(),
});
export type AdminBooking = z.infer<typeof adminBookingSchema>;

export const organizationDataResponseSchema = z.object({
  organizationData: organizationProfileSchema,
  services: z.array(adminServiceSchema),
  stats: z.object({
    total_services: z.number().int(),
    /** Bookings that are or were real: confirmed, checked in or no-show. */
    total_bookings: z.number().int(),
    /** Today's bookings (organization time zone), earliest first. */
    today: z.array(
      z.object({
        booking_id: idSchema,
        cus_name: z.string(),
        service_name: z.string(),
        service_name_fr: z.string().nullable(),
        /** "HH:MM" */
        time: z.string(),
        status: z.enum(ADMIN_BOOKING_STATUSES),
      }),
    ),
    /** Bookings flagged for the admin (attention_reason set), upcoming only. */
    needs_attention: z.number().int(),
  }),
});
export type OrganizationDataResponse = z.infer<typeof organizationDataResponseSchema>;

/** Operators name the organization; everyone else may omit it (their own is used). */
export const organizationScopeQuerySchema = withFieldCodes(
  z.object({ organization_id: idSchema.optional() }),
  { organization_id: 'INVALID_ID' },
);

export const adminBookingsQuerySchema = withFieldCodes(
  z.object({
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
    from: isoDateSchema.optional(),
    to: isoDateSchema.optional(),
    /**
     * One status or several, comma-separated. Without it: every booking that was ever
     * confirmed (it has a ticket), so unpaid and lapsed holds stay out of the way.
     */
    status: z
      .string()
      .max(100)
      .optional()
      .transform((s) => (s ? s.split(',').map((x) => x.trim()) : undefined))
      .pipe(z.array(z.enum(ADMIN_BOOKING_STATUSES)).optional()),
    /** Only bookings flagged for attention. */
    attention: z.enum(['true', 'false']).optional(),
  }),
  {
    page: 'VALIDATION_FAILED',
    page_size: 'VALIDATION_FAILED',
    from: 'INVALID_DATE',
    to: 'INVALID_DATE',
    status: 'VALIDATION_FAILED',
    attention: 'VALIDATION_FAILED',
  },
);

export const adminBookingsResponseSchema = z.object({
  bookings: z.array(adminBookingSchema),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
});
export type AdminBookingsResponse = z.infer<typeof adminBookingsResponseSchema>;

const serviceFields = {
  service_name: z.string().trim().min(1, 'Enter a service name').max(200),
  service_description: z.string().trim().min(1, 'Enter a description').max(2000),
  service_name_fr: z.string().trim().max(200).nullable().optional(),
  service_description_fr: z.string().trim().max(2000).nullable().optional(),
  /** Minutes, 5 to 720 (the spec's client parses it as a base-10 integer). */
  duration: z.coerce.number().int('Duration is whole minutes').min(5).max(720),
  capacity: z.coerce.number().int().min(1).max(100).optional(),
};
const serviceFieldCodes = {
  service_name: 'INVALID_NAME',
  service_description: 'INVALID_DESCRIPTION',
  service_name_fr: 'INVALID_NAME',
  service_description_fr: 'INVALID_DESCRIPTION',
  duration: 'INVALID_DURATION',
  capacity: 'INVALID_CAPACITY',
} as const;

/** POST /api/v1/{organization_id}/services (the spec's body, plus optional extras). */
export const createServiceRequestSchema = withFieldCodes(
  z.object({ ...serviceFields, organization_id: idSchema.optional() }),
  { ...serviceFieldCodes, organization_id: 'INVALID_ID' },
);
export type CreateServiceRequest = z.input<typeof createServiceRequestSchema>;

/** PATCH /api/v1/organization/services/{service_id}: any subset; active=false deactivates. */
export const updateServiceRequestSchema = withFieldCodes(
  z.object({
    service_name: serviceFields.service_name.optional(),
    service_description: serviceFields.service_description.optional(),
    service_name_fr: serviceFields.service_name_fr,
    service_description_fr: serviceFields.service_description_fr,
    duration: serviceFields.duration.optional(),
    capacity: serviceFields.capacity,
    active: z.boolean().optional(),
  }),
  { ...serviceFieldCodes, active: 'VALIDATION_FAILED' },
);
export type UpdateServiceRequest = z.input<typeof updateServiceRequestSchema>;

export const serviceChangeResponseSchema = z.object({
  service: adminServiceSchema,
  /** Upcoming bookings the change left outside the service's slots (now flagged). */
  flagged_bookings: z.number().int(),
});

/**
 * PATCH /api/v1/organization/update/profile. `email` is accepted (the spec's client sends it)
 * and ignored; `public_email` publishes a contact address (null or '' withdraws it).
 */
export const updateProfileRequestSchema = withFieldCodes(
  z.object({
    organization_id: idSchema.optional(),
    name: z.string().trim().min(1, 'Enter the organization name').max(200),
    location: z.string().trim().max(300).optional(),
    start_time: timeOfDayInputSchema,
    end_time: timeOfDayInputSchema,
    email: z.string().max(254).optional(),
    public_email: z
      .union([
        z.literal(''),
        z.string().trim().max(254).pipe(z.email('Enter a valid email address')),
      ])
      .nullable()
      .optional(),
    /** A logo URL answered by POST /api/v1/uploads (or null to remove it). */
    image_url: z.string().max(500).nullable().optional(),
    city: z.string().trim().max(100).optional(),
    category: z.string().trim().max(100).optional(),
    time_zone: z.string().max(64).optional(),
    open_days: z.array(weekdaySchema).max(7).optional(),
    /** Minutes before a slot after which customers may no longer cancel or reschedule. */
    change_cutoff_minutes: z
      .number()
      .int('Whole minutes')
      .min(0)
      .max(MAX_CHANGE_CUTOFF_MINUTES)
      .optional(),
    /** Minutes a waitlist offer of a freed seat stays open (5–120). */
    waitlist_hold_minutes: z
      .number()
      .int('Whole minutes')
      .min(WAITLIST_HOLD_MINUTES.min)
      .max(WAITLIST_HOLD_MINUTES.max)
      .optional(),
  }),
  {
    organization_id: 'INVALID_ID',
    name: 'INVALID_NAME',
    location: 'INVALID_LOCATION',
    start_time: 'INVALID_TIME',
    end_time: 'INVALID_TIME',
    email: 'INVALID_EMAIL',
    public_email: 'INVALID_EMAIL',
    image_url: 'INVALID_IMAGE_URL',
    city: 'INVALID_LOCATION',
    category: 'VALIDATION_FAILED',
    time_zone: 'INVALID_TIME_ZONE',
    open_days: 'INVALID_OPEN_DAYS',
    change_cutoff_minutes: 'INVALID_CUTOFF',
    waitlist_hold_minutes: 'INVALID_WAITLIST_HOLD',
  },
);
export type UpdateProfileRequest = z.input<typeof updateProfileRequestSchema>;

export const updateProfileResponseSchema = z.object({
  organizationData: organizationProfileSchema,
  /** Upcoming bookings the new hours or days no longer hold (now flagged, never dropped). */
  flagged_bookings: z.number().int(),
});

export const closureRequestSchema = withFieldCodes(
  z.object({
    organization_id: idSchema.optional(),
    date: isoDateSchema,
    reason: z.string().trim().max(200).optional().default(''),
  }),
  { organization_id: 'INVALID_ID', date: 'INVALID_DATE', reason: 'VALIDATION_FAILED' },
);
export const closuresResponseSchema = z.object({
  closures: z.array(closureSchema),
  flagged_bookings: z.number().int(),
});

export const uploadResponseSchema = z.object({ secure_url: z.string() });
