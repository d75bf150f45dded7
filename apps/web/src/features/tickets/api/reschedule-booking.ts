import type { CustomerBooking, CustomerBookingResponse, RescheduleRequest } from '@qless/contract';
import { BOOKING_KEY_HEADER } from '@qless/contract/core';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** Moves the booking to another free slot of the same service, in one step on the server. */
export async function rescheduleBooking(
  bookingId: string,
  accessKey: string,
  to: RescheduleRequest,
): Promise<CustomerBooking> {
  const body = await apiFetch<CustomerBookingResponse>(apiPaths.customerReschedule(bookingId), {
    method: 'POST',
    body: to,
    headers: { [BOOKING_KEY_HEADER]: accessKey },
  });
  return body.booking;
}
