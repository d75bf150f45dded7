/**
 * The bookings made on this device: what "My bookings" lists, what a payment
 * in flight is resumed from, and the access key that proves the booking is this device's.
 * Shared by the payments feature (writes on initiation) and the tickets feature (reads,
 * updates); features never import each other, so it lives here.
 */
export interface DeviceBooking {
  booking_id: string;
  payment_id: string;
  access_key: string;
  /** The ticket code once paid. */
  code: string | null;
  service_id: string;
  slot_id: string;
  organization: string;
  service: string;
  /** yyyy-MM-dd and "HH:MM" in the organization's zone. */
  date: string;
  time: string;
  /** ISO 8601: when the unpaid hold lapses. */
  hold_expires_at: string;
  /** Last known state: 'pending' while the payment is in flight. */
  state: 'pending' | 'confirmed' | 'failed' | 'cancelled' | 'checked_in' | 'no_show' | 'expired';
  saved_at: string;
}

const KEY = 'qless.bookings';
/** Oldest entries are dropped beyond this, so storage stays small. */
const MAX_ENTRIES = 50;

function isDeviceBooking(value: unknown): value is DeviceBooking {
  const v = value as Partial<DeviceBooking> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.booking_id === 'string' &&
    typeof v.payment_id === 'string' &&
    typeof v.access_key === 'string' &&
    typeof v.date === 'string' &&
    typeof v.state === 'string'
  );
}

export function readDeviceBookings(): DeviceBooking[] {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return [];
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isDeviceBooking) : [];
  } catch {
    return [];
  }
}

function write(entries: DeviceBooking[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(entries.slice(-MAX_ENTRIES)));
  } catch {
    // Storage full or disabled: the ticket link in the messages still reaches the booking.
  }
}

/** Adds the booking, or replaces the entry with the same booking id. */
export function saveDeviceBooking(entry: DeviceBooking): void {
  write([...readDeviceBookings().filter((b) => b.booking_id !== entry.booking_id), entry]);
}

export function updateDeviceBooking(bookingId: string, patch: Partial<DeviceBooking>): void {
  write(readDeviceBookings().map((b) => (b.booking_id === bookingId ? { ...b, ...patch } : b)));
}

export function removeDeviceBooking(bookingId: string): void {
  write(readDeviceBookings().filter((b) => b.booking_id !== bookingId));
}

/** The payment still in flight on this device, if its hold has not lapsed at `now`. */
export function pendingDeviceBooking(now: Date): DeviceBooking | null {
  const pending = readDeviceBookings()
    .filter((b) => b.state === 'pending' && Date.parse(b.hold_expires_at) > now.getTime())
    .sort((a, b) => b.saved_at.localeCompare(a.saved_at));
  return pending[0] ?? null;
}
