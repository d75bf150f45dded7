import type { TakenSlotListResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { type AsyncState, useAsync } from '../../../lib/use-async';

type Taken = TakenSlotListResponse['bookings'];

/** Full slots between two dates (yyyy-MM-dd, inclusive). */
export async function getTakenSlots(
  serviceId: string,
  start: string,
  end: string,
  signal?: AbortSignal,
): Promise<Taken> {
  const body = await apiFetch<TakenSlotListResponse>(
    apiPaths.serviceBookings(serviceId, { start, end }),
    { signal },
  );
  return body.bookings;
}

export function useTakenSlots(
  serviceId: string,
  start: string,
  end: string,
  reloadKey: number,
): AsyncState<Taken> {
  return useAsync(
    (signal) => getTakenSlots(serviceId, start, end, signal),
    [serviceId, start, end, reloadKey],
  );
}
