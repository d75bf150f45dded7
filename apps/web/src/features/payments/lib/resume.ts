import type { PaymentStatusMessage } from '@qless/contract';
import {
  type DeviceBooking,
  pendingDeviceBooking,
  readDeviceBookings,
  updateDeviceBooking,
} from '../../../lib/device-bookings';
import type { Customer, PaymentRef } from './booking-wizard';
import { ussdCodeFor } from './phone';

/**
 * What brings a customer back to a payment they left (reload, Back, a closed modal): the
 * booking the wizard was following and the details typed for it, so "Use another number"
 * can start again without retyping. Kept until the customer ends the wizard themselves.
 */
export interface ResumeMarker {
  booking_id: string;
  customer: Customer;
  /** E.164 */
  phone: string;
  /** The USSD code the provider gave, shown again on resume. */
  ussd: string | null;
}

const MARKER_KEY = 'qless.payment.resume';
/** Fired on `window` when this tab changes the marker or a device booking's state. */
export const RESUME_CHANGED_EVENT = 'qless:payment-resume-changed';
/** Fired on `window` to ask the open slots page to reopen the payment it shows. */
export const RESUME_REQUEST_EVENT = 'qless:payment-resume-request';
/** A pending payment whose hold lapsed is still looked up this long: it may have been paid. */
const LOOK_BACK_MS = 24 * 60 * 60_000;

function isMarker(value: unknown): value is ResumeMarker {
  const v = value as Partial<ResumeMarker> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.booking_id === 'string' &&
    typeof v.phone === 'string' &&
    (v.ussd === null || typeof v.ussd === 'string') &&
    typeof v.customer === 'object' &&
    v.customer !== null &&
    typeof v.customer.username === 'string' &&
    typeof v.customer.email === 'string'
  );
}

export function readResumeMarker(): ResumeMarker | null {
  try {
    const raw = localStorage.getItem(MARKER_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return isMarker(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function notify(): void {
  if (typeof dispatchEvent === 'function') dispatchEvent(new Event(RESUME_CHANGED_EVENT));
}

export function writeResumeMarker(marker: ResumeMarker): void {
  try {
    localStorage.setItem(MARKER_KEY, JSON.stringify(marker));
  } catch {
    // Storage full or disabled: the payment is still followed while the page stays open.
  }
  notify();
}

/** Forgets the marker, only if it names `bookingId` when one is given. */
export function clearResumeMarker(bookingId?: string): void {
  const marker = readResumeMarker();
  if (!marker || (bookingId && marker.booking_id !== bookingId)) return;
  try {
    localStorage.removeItem(MARKER_KEY);
  } catch {
    // See writeResumeMarker.
  }
  notify();
}

const savedWithin = (b: DeviceBooking, now: Date) =>
  now.getTime() - Date.parse(b.saved_at) < LOOK_BACK_MS;

/**
 * The booking to bring the customer back to, if any: the one the wizard was following when
 * it was left (still pending, or paid and not yet seen), else the payment in flight on this
 * device, else a recent pending one whose hold lapsed (its status decides whether it was paid).
 */
export function resumableBooking(now: Date): DeviceBooking | null {
  const bookings = readDeviceBookings();
  const marker = readResumeMarker();
  const marked = marker
    ? bookings.find(
        (b) =>
          b.booking_id === marker.booking_id &&
          (b.state === 'pending' || b.state === 'confirmed') &&
          savedWithin(b, now),
      )
    : undefined;
  if (marked) return marked;
  const inFlight = pendingDeviceBooking(now);
  if (inFlight) return inFlight;
  const lapsed = bookings
    .filter((b) => b.state === 'pending' && savedWithin(b, now))
    .sort((a, b) => b.saved_at.localeCompare(a.saved_at));
  return lapsed[0] ?? null;
}

/** The pending payment this device holds on a slot, if any (its own hold, not someone else's). */
export function ownPendingOnSlot(slotId: string, date: string, now: Date): DeviceBooking | null {
  const entry = pendingDeviceBooking(now);
  return entry && entry.slot_id === slotId && entry.date === date ? entry : null;
}

/** What a status message changes in the device's record of the booking (null: nothing). */
export function devicePatchFor(message: PaymentStatusMessage): Partial<DeviceBooking> | null {
  if (message.status === 'SUCCESSFUL') {
    // Paid but not honoured (the slot went to someone else after the hold lapsed): refunded.
    return message.ticket
      ? { state: 'confirmed', code: message.ticket.code }
      : { state: 'expired' };
  }
  if (message.status === 'FAILED') {
    return { state: message.failure_code === 'CANCELLED_BY_CUSTOMER' ? 'cancelled' : 'failed' };
  }
  return null;
}

/** Records a payment's status on this device's booking; true when something changed. */
export function recordStatus(bookingId: string, message: PaymentStatusMessage): boolean {
  const patch = devicePatchFor(message);
  if (!patch) return false;
  const current = readDeviceBookings().find((b) => b.booking_id === bookingId);
  if (!current || (current.state === patch.state && current.code === (patch.code ?? current.code)))
    return false;
  updateDeviceBooking(bookingId, patch);
  notify();
  return true;
}

/** The payment a device booking stands for, as the wizard follows it. */
export function paymentRefOf(entry: DeviceBooking, marker: ResumeMarker | null): PaymentRef {
  return {
    paymentId: entry.payment_id,
    bookingId: entry.booking_id,
    accessKey: entry.access_key,
    holdExpiresAt: entry.hold_expires_at,
    // From the number, not the stored code: markers written by older builds hold MTN's code
    // for Orange numbers too.
    ussd: marker?.booking_id === entry.booking_id ? ussdCodeFor(marker.phone) : null,
  };
}
