import type { CustomerBooking, CustomerBookingResponse } from '@qless/contract';
import { BOOKING_KEY_HEADER } from '@qless/contract/core';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** Cancels the booking (until its change deadline); the seat is freed at once. */
export async function cancelBooking(
  bookingId: string,
  accessKey: string,
): Promise<CustomerBooking> {
  const body = await apiFetch<CustomerBookingResponse>(apiPaths.customerCancel(bookingId), {
    method: 'POST',
    headers: { [BOOKING_KEY_HEADER]: accessKey },
  });
  return body.booking;
}
