/** Business constants shared by the server and the web app (spec section 9). */
export const PRODUCT_NAME = 'Qless';
export const PLATFORM_FEE_XAF = 2;
export const CURRENCY = 'XAF';
export const PAYMENT_DESCRIPTION = 'Service Payment';
export const PHONE_PREFIX = '+237';
export const DEFAULT_TIME_ZONE = 'Africa/Douala';
export const CAROUSEL_INTERVAL_MS = 3500;
export const DESCRIPTION_WORDS = 8;
export const ORGANIZATIONS_PAGE_SIZE = 12;
export const WEEK_LENGTH_DAYS = 7;
/** Longest range the public bookings endpoint answers, in days (inclusive). */
export const MAX_BOOKINGS_RANGE_DAYS = 62;
/** Slot durations a service may have, in minutes. */
export const MIN_SERVICE_DURATION_MINUTES = 5;
export const MAX_SERVICE_DURATION_MINUTES = 720;
export const PAYMENT_STATUSES = ['PENDING', 'SUCCESSFUL', 'FAILED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const BOOKING_STATUSES = [
  'held',
  'confirmed',
  'expired',
  'cancelled',
  'checked_in',
  'no_show',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
/** Statuses that occupy a slot on a date. */
export const ACTIVE_BOOKING_STATUSES = ['held', 'confirmed', 'checked_in'] as const;
