import type { CustomerBooking } from '@qless/contract';

/**
 * The customer's own bookings as a key last opened them (decision 113): what the ticket page
 * and My bookings show, marked "saved on this phone", when the network fails. Only answers
 * read with the booking's access key are saved (never the public look-up of a code), next
 * to the keys in this device's storage; the service worker caches no API answer.
 */
export interface SavedTicket {
  booking: CustomerBooking;
  /** ISO 8601: when this copy was read from the server. */
  saved_at: string;
}

const KEY = 'qless.saved-tickets';
/** The most recently saved are kept: a booking is about 2 KB. */
const MAX_SAVED = 20;

function isSaved(value: unknown): value is SavedTicket {
  const v = value as Partial<SavedTicket> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.saved_at === 'string' &&
    typeof v.booking === 'object' &&
    v.booking !== null &&
    typeof v.booking.booking_id === 'string' &&
    typeof v.booking.status === 'string'
  );
}

function readAll(): SavedTicket[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isSaved) : [];
  } catch {
    return [];
  }
}

function write(list: SavedTicket[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(-MAX_SAVED)));
  } catch {
    // Storage full or disabled: the ticket needs the network, as before.
  }
}

/** Saves (or replaces) the copy of a booking the server just answered to its key. */
export function saveTicket(booking: CustomerBooking, now = new Date()): void {
  write([
    ...readAll().filter((s) => s.booking.booking_id !== booking.booking_id),
    { booking, saved_at: now.toISOString() },
  ]);
}

export function savedTicket(bookingId: string): SavedTicket | null {
  return readAll().find((s) => s.booking.booking_id === bookingId) ?? null;
}

export function forgetTicket(bookingId: string): void {
  write(readAll().filter((s) => s.booking.booking_id !== bookingId));
}
