import type { CustomerBooking } from '@qless/contract';
import { readDeviceBookings, saveDeviceBooking } from '../../../lib/device-bookings';
import { deviceEntryFor } from './device-list';
import { saveTicket } from './saved-tickets';

/**
 * Keeps (or refreshes) the booking on this device with the key that opens it, so
 * "My bookings" lists it and the ticket page opens it again without asking.
 */
export function rememberBooking(
  booking: CustomerBooking,
  accessKey: string,
  locale: 'en' | 'fr',
  now = new Date(),
): void {
  const previous = readDeviceBookings().find((b) => b.booking_id === booking.booking_id);
  saveDeviceBooking(deviceEntryFor(booking, accessKey, previous, now, locale));
  // What the key opened opens again offline (decision 113).
  saveTicket(booking, now);
}

/** The booking this device holds for a ticket code, if any. */
export function deviceBookingForCode(code: string) {
  return readDeviceBookings().find((b) => b.code === code) ?? null;
}
