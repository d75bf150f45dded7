import type { Organization, OrganizationResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { embedded } from '../../../lib/embedded-data';
import { type AsyncState, useAsync } from '../../../lib/use-async';

export async function getOrganization(orgId: string, signal?: AbortSignal): Promise<Organization> {
  const body = await apiFetch<OrganizationResponse>(apiPaths.organization(orgId), { signal });
  return body.organization;
}

/** `initial` (navigation state) skips the request; change `reloadKey` to try again. */
export function useOrganization(
  orgId: string,
  initial?: Organization | null,
  reloadKey = 0,
): AsyncState<Organization> {
  const usable = initial && initial.organization_id === orgId ? initial : null;
  const state = useAsync(
    (signal) => getOrganization(orgId, signal),
    [orgId, reloadKey],
    Boolean(usable),
    embedded(apiPaths.organization(orgId), (body: OrganizationResponse) => body.organization),
  );
  return usable ? { status: 'success', data: usable, error: undefined } : state;
}
