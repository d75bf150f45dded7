import type { CustomerBooking, CustomerBookingResponse } from '@qless/contract';
import { BOOKING_KEY_HEADER } from '@qless/contract/core';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** The customer's own booking, read with its access key. */
export async function getCustomerBooking(
  bookingId: string,
  accessKey: string,
  signal?: AbortSignal,
): Promise<CustomerBooking> {
  const body = await apiFetch<CustomerBookingResponse>(apiPaths.customerBooking(bookingId), {
    headers: { [BOOKING_KEY_HEADER]: accessKey },
    signal,
  });
  return body.booking;
}
