/**
 * Customer self-service (issue 10). A booking is reached by its id plus an access key:
 * `X-Booking-Key: <key>` on every call. The key is an HMAC of the booking id under a server
 * secret, so the server can hand it out again: in the initiation answer (kept on the device
 * that booked), in the ticket link of every message (`/#/ticket/{code}?k=<key>`, the key in
 * the URL fragment, which never reaches a server log), and after the ticket code plus the
 * last four digits of the phone number (POST /tickets/{code}/access).
 */
export const BOOKING_KEY_HEADER = 'x-booking-key';

/** The languages a customer receives messages in. */
export const CUSTOMER_LOCALES = ['en', 'fr'] as const;
export type CustomerLocale = (typeof CUSTOMER_LOCALES)[number];

/** Default minutes before a slot after which a customer may no longer cancel or reschedule. */
export const DEFAULT_CHANGE_CUTOFF_MINUTES = 120;

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

/** Failure codes a FAILED payment may carry that the client names (others read as generic). */
export const PAYMENT_FAILURE_REASONS = {
  DECLINED: 'declined',
  /** The simulator's decline (numbers ending in 000). */
  SIMULATED_DECLINE: 'declined',
  EXPIRED: 'not_approved_in_time',
  TIMEOUT: 'provider_unavailable',
  PROVIDER_UNAVAILABLE: 'provider_unavailable',
  CANCELLED_BY_CUSTOMER: 'cancelled',
  SUPERSEDED: 'cancelled',
} as const;

/**
 * The ticket's QR code holds a link to the ticket page, so a phone camera opens something
 * useful; the signed token rides in the link's hash (never sent to a server by a browser).
 * `/#/ticket/{code}?t={token}`.
 */
export function ticketPageUrl(origin: string, code: string, params: { t?: string; k?: string }) {
  const search = (['t', 'k'] as const)
    .filter((name) => params[name])
    .map((name) => `${name}=${encodeURIComponent(params[name] ?? '')}`)
    .join('&');
  return `${origin.replace(/\/+$/, '')}/#/ticket/${encodeURIComponent(code)}${search ? `?${search}` : ''}`;
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
    const fragment = hash >= 0 ? text.slice(hash + 1) : '';
    const query = fragment.includes('?') ? fragment.slice(fragment.indexOf('?') + 1) : '';
    const pair = query.split('&').find((part) => part.startsWith('t='));
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
