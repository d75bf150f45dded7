/**
 * Customer self-service. A booking is reached by its id plus an access key:
 * `X-Booking-Key: <key>` on every call. The key is an HMAC of the booking id under a server
 * secret, so the server can hand it out again: in the initiation answer (kept on the device
 * that booked), in the ticket link of every message (`/ticket/{code}#k=<key>`, the key in
 * the URL fragment, which never reaches a server log), and after the ticket code plus the
 * last four digits of the phone number (POST /tickets/{code}/access).
 */
export const BOOKING_KEY_HEADER = 'x-booking-key';

/**
 * A visit's key (the walk-in's link, decision 120) and a waitlist entry's withdraw key
 * (decision 023), as the web app sends them: in a header, never in an address that a proxy
 * logs (decision 124). The older `?key=` query is still accepted, for clients already out.
 */
export const VISIT_KEY_HEADER = 'x-visit-key';
export const WAITLIST_KEY_HEADER = 'x-waitlist-key';

/** The languages a customer receives messages in. */
export const CUSTOMER_LOCALES = ['en', 'fr'] as const;
export type CustomerLocale = (typeof CUSTOMER_LOCALES)[number];

/** Default minutes before a slot after which a customer may no longer cancel or reschedule. */
export const DEFAULT_CHANGE_CUTOFF_MINUTES = 120;
/** The longest cut-off an organization may set: a week (the database checks it too). */
export const MAX_CHANGE_CUTOFF_MINUTES = 10_080;

export const CUSTOMER_BOOKING_STATUSES = [
  'held',
  'confirmed',
  'checked_in',
  'cancelled',
  'no_show',
  'expired',
] as const;

/** Why a customer may not change a booking now (null in `change_blocked` when they may). */
export const CHANGE_BLOCKED_REASONS = ['NOT_CONFIRMED', 'PAST_CUTOFF'] as const;

/** What the customer is told about a failed payment (the client words each one). */
export const PAYMENT_FAILURE_REASON_NAMES = [
  'declined',
  'not_approved_in_time',
  'provider_unavailable',
  'cancelled',
] as const;
export type PaymentFailureReason = (typeof PAYMENT_FAILURE_REASON_NAMES)[number];

/**
 * Every failure code the server records on a FAILED payment, by what it means to the
 * customer (apps/api lists the codes it produces in a test and checks each is here):
 * - the state machine: DECLINED (a failure the provider gave no code for), AMOUNT_MISMATCH;
 * - the simulator: SIMULATED_DECLINE;
 * - a refused collect (the provider's code, else ours): Campay's ER101/ER102 (number not
 *   accepted), ER201/ER301 (amount, balance), PAYMENT_DECLINED, INVALID_PHONE; and when the
 *   provider could not be used: PROVIDER_UNAVAILABLE, UNAUTHORIZED, AUTH_FAILED,
 *   TOKEN_UNAVAILABLE, TIMEOUT, NETWORK_ERROR, BAD_RESPONSE, EXCEPTION, HTTP_nnn;
 * - the reconciler: EXPIRED (still pending at the provider when we gave up), OUTCOME_UNKNOWN
 *   (the provider could not say; an operator reviews it), NOT_AT_PROVIDER (the provider, asked
 *   by our payment id, had no transaction for it long after it started: the collect never
 *   reached it);
 * - the hold limits: SUPERSEDED (a newer payment was started for the same number);
 * - the customer: CANCELLED_BY_CUSTOMER (POST /payment/{id}/cancel).
 * A provider's own code for a transaction it failed (Campay's "CP…") is not listed: see
 * paymentFailureReason.
 */
export const PAYMENT_FAILURE_REASONS = {
  DECLINED: 'declined',
  AMOUNT_MISMATCH: 'declined',
  SIMULATED_DECLINE: 'declined',
  PAYMENT_DECLINED: 'declined',
  INVALID_PHONE: 'declined',
  ER101: 'declined',
  ER102: 'declined',
  ER201: 'declined',
  ER301: 'declined',
  EXPIRED: 'not_approved_in_time',
  TIMEOUT: 'provider_unavailable',
  PROVIDER_UNAVAILABLE: 'provider_unavailable',
  OUTCOME_UNKNOWN: 'provider_unavailable',
  NOT_AT_PROVIDER: 'provider_unavailable',
  UNAUTHORIZED: 'provider_unavailable',
  AUTH_FAILED: 'provider_unavailable',
  TOKEN_UNAVAILABLE: 'provider_unavailable',
  NETWORK_ERROR: 'provider_unavailable',
  BAD_RESPONSE: 'provider_unavailable',
  EXCEPTION: 'provider_unavailable',
  CANCELLED_BY_CUSTOMER: 'cancelled',
  SUPERSEDED: 'cancelled',
} as const satisfies Record<string, PaymentFailureReason>;

/**
 * What a FAILED payment's failure code means to the customer. HTTP_408, HTTP_429 and
 * HTTP_5xx (the provider answered with an error) are `provider_unavailable`, another
 * HTTP_4xx a refusal; any code not listed (a provider's own code for a transaction it
 * failed) is `declined`: the provider said no.
 */
export function paymentFailureReason(code: string | null | undefined): PaymentFailureReason {
  if (!code) return 'declined';
  if (Object.hasOwn(PAYMENT_FAILURE_REASONS, code)) {
    return PAYMENT_FAILURE_REASONS[code as keyof typeof PAYMENT_FAILURE_REASONS];
  }
  const http = /^HTTP_(\d{3})$/.exec(code);
  if (http) {
    const status = Number(http[1]);
    return status === 408 || status === 429 || status >= 500 ? 'provider_unavailable' : 'declined';
  }
  return 'declined';
}

/**
 * The ticket page's link: `/ticket/{code}#t={token}&k={key}`. A path, so the server renders
 * the ticket's public part at once (decision 112; the older `/#/ticket/{code}?k=` links made
 * it render the home page first); the token and the key ride in the fragment, which a
 * browser never sends to a server. The QR code holds it too, so a phone camera opens
 * something useful.
 */
export function ticketPageUrl(origin: string, code: string, params: { t?: string; k?: string }) {
  const fragment = (['t', 'k'] as const)
    .filter((name) => params[name])
    .map((name) => `${name}=${encodeURIComponent(params[name] ?? '')}`)
    .join('&');
  return `${origin.replace(/\/+$/, '')}/ticket/${encodeURIComponent(code)}${fragment ? `#${fragment}` : ''}`;
}

/**
 * The signed token in what a counter scanned: the `t` of a ticket page link, or the scan
 * itself when it is a bare token (tickets printed before links). Null when neither.
 */
export function ticketTokenFromScan(scanned: string): string | null {
  const text = scanned.trim();
  if (!text) return null;
  const hash = text.indexOf('#');
  if (hash >= 0 || /^https?:\/\//i.test(text)) {
    // A hash route's query (`/#/ticket/{code}?t=`, tickets printed before decision 112),
    // the fragment itself (`/ticket/{code}#t=`), else the page's own query.
    const fragment = hash >= 0 ? text.slice(hash + 1) : '';
    const beforeHash = hash >= 0 ? text.slice(0, hash) : text;
    const queryOf = (part: string) => (part.includes('?') ? part.slice(part.indexOf('?') + 1) : '');
    const pairOf = (query: string) => query.split('&').find((p) => p.startsWith('t='));
    const pair =
      pairOf(queryOf(fragment)) ??
      (fragment.startsWith('/') ? undefined : pairOf(fragment)) ??
      pairOf(queryOf(beforeHash));
    let token: string | null = null;
    try {
      token = pair ? decodeURIComponent(pair.slice(2)) : null;
    } catch {
      return null;
    }
    return token && token.length <= 2000 ? token : null;
  }
  return text.length <= 2000 ? text : null;
}

/**
 * A booking's short link, in its SMS (decision 141): `/t/{code}`, 12 characters of the slips'
 * alphabet (Crockford's base 32, about 10¹⁸ codes). The server answers it with a redirect to
 * the ticket page with its key, so an SMS carries 35 characters of link instead of about 90.
 */
export const TICKET_LINK_CODE_LENGTH = 12;

export function ticketShortUrl(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/t/${code}`;
}

/** A walk-in's short link, in its SMS: the slip's follow code page (`/f/{code}`). */
export function followShortUrl(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/f/${code}`;
}
