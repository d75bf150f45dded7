import type { Service, ServiceListResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { embedded } from '../../../lib/embedded-data';
import { type AsyncState, useAsync } from '../../../lib/use-async';

export async function getServices(orgId: string, signal?: AbortSignal): Promise<Service[]> {
  const body = await apiFetch<ServiceListResponse>(apiPaths.organizationServices(orgId), {
    signal,
  });
  return body.services;
}

export function useServices(orgId: string, reloadKey = 0): AsyncState<Service[]> {
  return useAsync(
    (signal) => getServices(orgId, signal),
    [orgId, reloadKey],
    false,
    embedded(apiPaths.organizationServices(orgId), (body: ServiceListResponse) => body.services),
  );
}
