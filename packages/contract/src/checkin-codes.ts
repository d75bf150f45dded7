/**
 * The zod-free part of check-in at the counter: reason codes, the ticket
 * token's claims and the ticket-code form. The check-in screen verifies tokens offline with
 * these, so they live in `@qless/contract/core` (no zod in the web bundle).
 */

/** Why a ticket may or may not be checked in now; `OK`: it may. */
export const CHECKIN_REASONS = [
  'OK',
  'INVALID_SIGNATURE',
  'UNKNOWN_TICKET',
  'WRONG_ORGANIZATION',
  'NOT_TODAY',
  'ALREADY_CHECKED_IN',
  'BOOKING_HELD',
  'BOOKING_CANCELLED',
  'BOOKING_NO_SHOW',
  'BOOKING_EXPIRED',
] as const;
export type CheckinReason = (typeof CHECKIN_REASONS)[number];
/** Every reason but OK is also an error code a refused check-in answers with. */
export type CheckinRefusalReason = Exclude<CheckinReason, 'OK'>;

/** States a booking of the day can be in on the Today screen (expired holds are left out). */
export const TODAY_BOOKING_STATUSES = [
  'held',
  'confirmed',
  'checked_in',
  'no_show',
  'cancelled',
] as const;
export type TodayBookingStatus = (typeof TODAY_BOOKING_STATUSES)[number];

/** Most check-ins one offline sync may carry. */
export const CHECKIN_SYNC_MAX_ITEMS = 200;

/** `iss` of every ticket token. */
export const TICKET_TOKEN_ISSUER = 'qless';
/** The one algorithm of new ticket tokens (Ed25519 keys); verifiers pin it. */
export const TICKET_TOKEN_ALG = 'EdDSA';

/** What a ticket token (the QR code) says; signed with the server's Ed25519 key. */
export interface TicketTokenClaims {
  /** The booking id. */
  sub: string;
  /** The ticket code printed on the ticket, e.g. "QL-7K4M-2QAB-XC9D". */
  code: string;
  /** The booking's date, yyyy-MM-dd in the organization's time zone. */
  date: string;
  /** The organization's id (absent from the HS256 tokens issued before). */
  org?: string;
  iat: number;
  iss: string;
}

const LETTER = '[2-9A-HJKMNP-TV-Z]';

/**
 * A ticket code: "QL-7K4M-2QAB-XC9D", or the shorter "QL-7K4M-2Q" of tickets issued before
 * (valid until their bookings pass). No 0/O, 1/I/L or U.
 */
export const TICKET_CODE_PATTERN = new RegExp(
  `^QL-${LETTER}{4}-(?:${LETTER}{2}|${LETTER}{4}-${LETTER}{4})$`,
);

/**
 * A typed code in its canonical form, or null: any case, with or without the dashes and
 * spaces people type ("ql 7k4m 2qab xc9d" → "QL-7K4M-2QAB-XC9D").
 */
export function normalizeTicketCode(input: string): string | null {
  const bare = input.toUpperCase().replace(/[\s-]/g, '');
  if (!bare.startsWith('QL')) return null;
  const rest = bare.slice(2);
  const groups = rest.length === 12 ? [0, 4, 8] : rest.length === 6 ? [0, 4] : null;
  if (!groups) return null;
  const code = `QL-${groups.map((at, i) => rest.slice(at, groups[i + 1] ?? rest.length)).join('-')}`;
  return TICKET_CODE_PATTERN.test(code) ? code : null;
}

/**
 * The ticket's QR: the code and an Ed25519 signature of it, nothing else
 * ("QL-7K4M-2QAB-XC9D." + 86 base64url characters, 104 in all). The JWT in a link that it
 * replaces took 471 characters and a dense code; this one fits a version 8 QR at error
 * correction Q, which still scans from a cracked screen. The code names the booking (it
 * is unique) and the booking names its organization and day, so the signature needs to
 * cover nothing more. Older tickets (JWTs, bare or in a link) still verify.
 */
export interface CompactTicketToken {
  code: string;
  /** base64url, no padding: the 64 bytes of an Ed25519 signature. */
  signature: string;
}

const COMPACT_TOKEN = new RegExp(
  `^(QL-${LETTER}{4}-(?:${LETTER}{2}|${LETTER}{4}-${LETTER}{4}))\\.([A-Za-z0-9_-]{86})$`,
);

/** A compact token's parts, or null when `text` is not one (a JWT, a link, a typed code). */
export function parseCompactTicketToken(text: string): CompactTicketToken | null {
  const match = COMPACT_TOKEN.exec(text.trim());
  return match?.[1] && match[2] ? { code: match[1], signature: match[2] } : null;
}

/**
 * The bytes a compact token signs: the code under a label of its own, so that no other
 * signature of the key (a JWT's signs "header.payload") can pass for a ticket's.
 */
export function compactTicketMessage(code: string): Uint8Array<ArrayBuffer> {
  // ASCII only (a code's letters, digits and dashes): its bytes are its char codes, and the
  // contract needs no TextEncoder (it is typed for no runtime).
  return Uint8Array.from(`qless-ticket:${code}`, (c) => c.charCodeAt(0) & 0x7f);
}
