import type {
  BookingWhatsAppRequest,
  CustomerBooking,
  CustomerBookingResponse,
} from '@qless/contract';
import { BOOKING_KEY_HEADER } from '@qless/contract/core';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** The turn's messages by WhatsApp to the booking's number, or not (decision 144). */
export async function setBookingWhatsApp(
  bookingId: string,
  accessKey: string,
  on: boolean,
): Promise<CustomerBooking> {
  const body: BookingWhatsAppRequest = { on };
  const answer = await apiFetch<CustomerBookingResponse>(apiPaths.customerWhatsApp(bookingId), {
    method: 'POST',
    headers: { [BOOKING_KEY_HEADER]: accessKey },
    body,
  });
  return answer.booking;
}
