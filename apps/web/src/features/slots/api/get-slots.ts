import type { Slot, SlotListResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { type AsyncState, useAsync } from '../../../lib/use-async';

export async function getSlots(serviceId: string, signal?: AbortSignal): Promise<Slot[]> {
  const body = await apiFetch<SlotListResponse>(apiPaths.serviceSlots(serviceId), { signal });
  return body.slots;
}

export function useSlots(serviceId: string, reloadKey: number): AsyncState<Slot[]> {
  return useAsync((signal) => getSlots(serviceId, signal), [serviceId, reloadKey]);
}
