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
  // The link to the database broke while a write committed: read again, never repeat it.
  'OUTCOME_UNKNOWN',
  // GET /metrics on the main port without the operator's token.
  'METRICS_TOKEN_REQUIRED',
  'INVALID_URL',
  'INVALID_PASSWORD',
  'INVALID_CREDENTIALS',
  'WEAK_PASSWORD',
  'TOO_MANY_LOGIN_ATTEMPTS',
  'ACCOUNT_DISABLED',
  'INVALID_TOKEN',
  'TOKEN_EXPIRED',
  'TOKEN_USED',
  'EMAIL_TAKEN',
  'ALREADY_HANDLED',
  'CONTACT_REQUEST_NOT_FOUND',
  'USER_NOT_FOUND',
  'CANNOT_DISABLE_SELF',
  'INVITATION_ACCEPTED',
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
  // Customer self-service.
  'INVALID_BOOKING_KEY',
  'BOOKING_ACCESS_DENIED',
  'TOO_MANY_ACCESS_ATTEMPTS',
  'CHANGE_PAST_CUTOFF',
  'BOOKING_NOT_CHANGEABLE',
  'SAME_SLOT',
  'PAYMENT_NOT_PENDING',
  'INVALID_CUTOFF',
  'INVALID_LOCALE',
  'INVALID_QUERY',
  'INVALID_PAGE',
  // Server hardening.
  'TOO_MANY_INVITATIONS',
  'BODY_TOO_DEEP',
  'TOO_MANY_FILES',
  'TOO_MANY_FIELDS',
  'UPLOAD_QUOTA_EXCEEDED',
  // The queue.
  'VISIT_NOT_FOUND',
  'COUNTER_NOT_FOUND',
  'BOARD_NOT_FOUND',
  'COUNTER_CLOSED',
  'COUNTER_BUSY',
  'COUNTER_IDLE',
  'QUEUE_EMPTY',
  'VISIT_NOT_ACTIONABLE',
  'NO_SHOW_TOO_EARLY',
  'NOTHING_TO_UNDO',
  'JOIN_DISABLED',
  'QUEUE_CLOSED',
  'TOO_MANY_VISITS',
  'INVALID_COUNTER',
  'INVALID_QUEUE_SETTINGS',
  'INVALID_VISIT_KEY',
  'SERVICE_NOT_AT_COUNTER',
  'QUEUE_FULL',
  // The join page's ceilings (decision 125).
  'QUEUE_JOINS_BUSY',
  'SELF_JOIN_LINE_FULL',
  'INVALID_CLEAR_WINDOW',
  // The code shown in the hall (decision 125).
  'JOIN_CODE_INVALID',
  'TOO_MANY_JOIN_CODE_TRIES',
  // The kiosk and its slip (decision 135).
  'KIOSK_NOT_FOUND',
  'INVALID_PAPER',
  'INVALID_REQUEST_ID',
  'PHONE_ALREADY_IN_LINE',
  'FOLLOW_CODE_NOT_FOUND',
  // The fair order (decision 138).
  'PRIORITY_CATEGORY_NOT_SERVED',
  'INVALID_FOLLOW_CODE',
  // Counters that route, calls out of order (decision 139).
  'CALL_REASON_REQUIRED',
  // Joining by SMS (decision 136).
  'INVALID_SMS_KEYWORD',
  'SMS_KEYWORD_TAKEN',
  'SMS_INBOUND_NOT_FOUND',
  // The waitlist for full days.
  'WAITLIST_DAY_NOT_FULL',
  'WAITLIST_DAY_PASSED',
  'WAITLIST_FULL',
  'TOO_MANY_WAITLIST_ENTRIES',
  'WAITLIST_ENTRY_NOT_FOUND',
  'INVALID_WAITLIST_HOLD',
  // A word after the visit.
  'FEEDBACK_LINK_INVALID',
  'FEEDBACK_LINK_EXPIRED',
  'FEEDBACK_ALREADY_GIVEN',
  'INVALID_RATING',
  'INVALID_COMMENT',
  // Branches (decision 024).
  'BRANCH_FORBIDDEN',
  'BRANCH_NOT_FOUND',
  'INVALID_BRANCH',
  // Personal data (decision 031).
  'CONFIRMATION_REQUIRED',
  'ERASURE_PAYMENT_PENDING',
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
