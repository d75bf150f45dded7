/** Business constants shared by the server and the web app (spec section 9). */
export const PLATFORM_FEE_XAF = 2;
export const CURRENCY = 'XAF';
export const PAYMENT_DESCRIPTION = 'Service Payment';
export const PHONE_PREFIX = '+237';
/** Zone of organizations that name none; the server's DEFAULT_TIME_ZONE may override it. */
export const DEFAULT_TIME_ZONE = 'Africa/Douala';
/** Longest range the public bookings endpoint answers, in days (inclusive). */
export const MAX_BOOKINGS_RANGE_DAYS = 62;
export const PAYMENT_STATUSES = ['PENDING', 'SUCCESSFUL', 'FAILED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** Statuses that occupy a slot on a date. */
export const ACTIVE_BOOKING_STATUSES = ['held', 'confirmed', 'checked_in'] as const;
export type BookingStatus =
  | (typeof ACTIVE_BOOKING_STATUSES)[number]
  | 'expired'
  | 'cancelled'
  | 'no_show';
/** How long a password reset link works, and an invitation link. */
export const RESET_LINK_VALID_HOURS = 1;
export const INVITATION_VALID_HOURS = 72;
/** Where a contact form request stands in the operator console. */
export const CONTACT_REQUEST_STATUSES = ['new', 'approved', 'rejected'] as const;
export type ContactRequestStatus = (typeof CONTACT_REQUEST_STATUSES)[number];
