import type { Organization, OrganizationListResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { embedded } from '../../../lib/embedded-data';
import { type AsyncState, useAsync } from '../../../lib/use-async';

export async function getOrganizations(signal?: AbortSignal): Promise<Organization[]> {
  const body = await apiFetch<OrganizationListResponse>(apiPaths.organizations(), { signal });
  return body.organizations;
}

/** The organization list; `initial` (from navigation state) skips the request. */
export function useOrganizations(initial?: Organization[] | null): AsyncState<Organization[]> {
  const state = useAsync(
    (signal) => getOrganizations(signal),
    [],
    Boolean(initial),
    embedded(apiPaths.organizations(), (body: OrganizationListResponse) => body.organizations),
  );
  return initial ? { status: 'success', data: initial, error: undefined } : state;
}
