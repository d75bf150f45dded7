import type { TakenSlotListResponse } from '@qless/contract';
import { apiQuery, fetchQuery } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { embedded } from '../../../lib/embedded-data';
import { type AsyncState, useAsync } from '../../../lib/use-async';

type Taken = TakenSlotListResponse['bookings'];

/** Full slots and seats taken between two dates (yyyy-MM-dd, inclusive). */
export const occupancyQuery = (serviceId: string, range: { start: string; end: string }) =>
  apiQuery<TakenSlotListResponse>(apiPaths.serviceBookings(serviceId, range));

export function getSlotOccupancy(
  serviceId: string,
  start: string,
  end: string,
  signal?: AbortSignal,
): Promise<TakenSlotListResponse> {
  return fetchQuery(occupancyQuery(serviceId, { start, end }), signal);
}

/** Full slots between two dates (yyyy-MM-dd, inclusive). */
export async function getTakenSlots(
  serviceId: string,
  start: string,
  end: string,
  signal?: AbortSignal,
): Promise<Taken> {
  return (await getSlotOccupancy(serviceId, start, end, signal)).bookings;
}

/** `range` null: not asked yet (the range depends on the slots' "today"). */
export function useSlotOccupancy(
  serviceId: string,
  range: { start: string; end: string } | null,
  reloadKey: number,
): AsyncState<TakenSlotListResponse> {
  return useAsync(
    (signal) =>
      range
        ? getSlotOccupancy(serviceId, range.start, range.end, signal)
        : Promise.reject(new Error('no range')),
    [serviceId, range?.start, range?.end, reloadKey],
    range === null,
    range ? embedded(occupancyQuery(serviceId, range), (body) => body) : undefined,
  );
}
