import type { SlotListResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { type AsyncState, useAsync } from '../../../lib/use-async';

/** The service's slots, with the days its organization is closed (weekdays and dates). */
export function getSlots(serviceId: string, signal?: AbortSignal): Promise<SlotListResponse> {
  return apiFetch<SlotListResponse>(apiPaths.serviceSlots(serviceId), { signal });
}

export function useSlots(serviceId: string, reloadKey: number): AsyncState<SlotListResponse> {
  return useAsync((signal) => getSlots(serviceId, signal), [serviceId, reloadKey]);
}
