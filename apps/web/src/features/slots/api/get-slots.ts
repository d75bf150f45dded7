import type { SlotListResponse } from '@qless/contract';
import { apiQuery, fetchQuery } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { embedded } from '../../../lib/embedded-data';
import { type AsyncState, useAsync } from '../../../lib/use-async';

/**
 * The service's slots, with the days its organization is closed (weekdays and dates), its
 * "today" and the last bookable date.
 */
export const slotsQuery = (serviceId: string) =>
  apiQuery<SlotListResponse>(apiPaths.serviceSlots(serviceId));

export function getSlots(serviceId: string, signal?: AbortSignal): Promise<SlotListResponse> {
  return fetchQuery(slotsQuery(serviceId), signal);
}

/** `skip`: the caller already has them (the state stays as it was). */
export function useSlots(
  serviceId: string,
  reloadKey: number,
  skip = false,
): AsyncState<SlotListResponse> {
  return useAsync(
    (signal) => getSlots(serviceId, signal),
    [serviceId, reloadKey],
    skip,
    embedded(slotsQuery(serviceId), (body) => body),
  );
}
