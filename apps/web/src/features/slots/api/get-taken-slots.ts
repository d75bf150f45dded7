import type { TakenSlotListResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { type AsyncState, useAsync } from '../../../lib/use-async';

/** Full slots and seats taken between two dates (yyyy-MM-dd, inclusive). */
export function getTakenSlots(
  serviceId: string,
  start: string,
  end: string,
  signal?: AbortSignal,
): Promise<TakenSlotListResponse> {
  return apiFetch<TakenSlotListResponse>(apiPaths.serviceBookings(serviceId, { start, end }), {
    signal,
  });
}

/** `range` null: not asked yet (the range depends on the slots' "today"). */
export function useTakenSlots(
  serviceId: string,
  range: { start: string; end: string } | null,
  reloadKey: number,
): AsyncState<TakenSlotListResponse> {
  return useAsync(
    (signal) =>
      range
        ? getTakenSlots(serviceId, range.start, range.end, signal)
        : Promise.reject(new Error('no range')),
    [serviceId, range?.start, range?.end, reloadKey],
    range === null,
  );
}
