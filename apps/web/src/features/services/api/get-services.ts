import type { Service, ServiceListResponse } from '@qless/contract';
import { apiQuery, fetchQuery } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { embedded } from '../../../lib/embedded-data';
import { type AsyncState, useAsync } from '../../../lib/use-async';

/** An organization's services (the page's list; the server embeds it for the first paint). */
export const organizationServicesQuery = (orgId: string) =>
  apiQuery<ServiceListResponse>(apiPaths.organizationServices(orgId));

export async function getServices(orgId: string, signal?: AbortSignal): Promise<Service[]> {
  return (await fetchQuery(organizationServicesQuery(orgId), signal)).services;
}

export function useServices(orgId: string, reloadKey = 0): AsyncState<Service[]> {
  return useAsync(
    (signal) => getServices(orgId, signal),
    [orgId, reloadKey],
    false,
    embedded(organizationServicesQuery(orgId), (body) => body.services),
  );
}
