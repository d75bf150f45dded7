import type { ServiceResponse } from '@qless/contract';
import { apiQuery, fetchQuery } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { embedded } from '../../../lib/embedded-data';
import { type AsyncState, useAsync } from '../../../lib/use-async';

/** One service with its organization: what a deep link to the slots page needs. */
export const serviceQuery = (serviceId: string) =>
  apiQuery<ServiceResponse>(apiPaths.service(serviceId));

export function getService(serviceId: string, signal?: AbortSignal): Promise<ServiceResponse> {
  return fetchQuery(serviceQuery(serviceId), signal);
}

/** `initial` (navigation state) skips the request; change `reloadKey` to try again. */
export function useService(
  serviceId: string,
  initial?: ServiceResponse | null,
  reloadKey = 0,
): AsyncState<ServiceResponse> {
  const usable = initial && initial.service.service_id === serviceId ? initial : null;
  const state = useAsync(
    (signal) => getService(serviceId, signal),
    [serviceId, reloadKey],
    Boolean(usable),
    embedded(serviceQuery(serviceId), (body) => body),
  );
  return usable ? { status: 'success', data: usable, error: undefined } : state;
}
