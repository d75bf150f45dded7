/**
 * Stable error codes. The client switches on `code`; the message is for people and may change.
 */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'INVALID_BODY',
  'INVALID_NAME',
  'INVALID_EMAIL',
  'INVALID_AMOUNT',
  'INVALID_CURRENCY',
  'INVALID_DESCRIPTION',
  'INVALID_REFERENCE',
  'INVALID_MESSAGE',
  'INVALID_PROVIDER',
  'NOT_FOUND',
  'ORGANIZATION_NOT_FOUND',
  'SERVICE_NOT_FOUND',
  'SLOT_NOT_FOUND',
  'PAYMENT_NOT_FOUND',
  'TICKET_NOT_FOUND',
  'INVALID_ID',
  'INVALID_DATE',
  'INVALID_DATE_RANGE',
  'DATE_RANGE_TOO_LONG',
  'SLOT_TAKEN',
  'SLOT_IN_PAST',
  'DATE_OUT_OF_HORIZON',
  'SLOT_NOT_IN_SERVICE',
  'INVALID_PHONE',
  'AMOUNT_MISMATCH',
  'CURRENCY_MISMATCH',
  'REFERENCE_CONFLICT',
  'PAYMENT_DECLINED',
  'PROVIDER_UNAVAILABLE',
  'INVALID_SIGNATURE',
  'INVALID_ENCODING',
  'INVALID_TICKET',
  // Check-in at the counter: a refused ticket answers its reason (CHECKIN_REASONS) as its code.
  'UNKNOWN_TICKET',
  'WRONG_ORGANIZATION',
  'NOT_TODAY',
  'ALREADY_CHECKED_IN',
  'BOOKING_HELD',
  'BOOKING_CANCELLED',
  'BOOKING_NO_SHOW',
  'BOOKING_EXPIRED',
  'BOOKING_NOT_FOUND',
  'SLOT_NOT_STARTED',
  'RATE_LIMITED',
  'TOO_MANY_SOCKETS',
  'TOO_MANY_HOLDS',
  'PAYMENT_IN_PROGRESS',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'ORIGIN_NOT_ALLOWED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  'DATABASE_UNAVAILABLE',
  'INVALID_URL',
  'INVALID_PASSWORD',
  'INVALID_CREDENTIALS',
  'WEAK_PASSWORD',
  'TOO_MANY_LOGIN_ATTEMPTS',
  'ACCOUNT_DISABLED',
  'INVALID_DURATION',
  'INVALID_CAPACITY',
  'INVALID_LOCATION',
  'INVALID_TIME',
  'INVALID_TIME_ZONE',
  'INVALID_OPEN_DAYS',
  'INVALID_IMAGE_URL',
  'INVALID_HOURS',
  'DAY_CLOSED',
  'INVALID_IMAGE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** One problem with one field of a request; `code` is that field's own code. */
export interface FieldProblem {
  path: string;
  code: ErrorCode;
  message: string;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  /** Every problem found in the request, first one first (its code is the body's code). */
  details?: FieldProblem[];
}
