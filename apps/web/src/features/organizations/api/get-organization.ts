import type { Organization, OrganizationResponse } from '@qless/contract';
import { apiQuery, fetchQuery } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { embedded } from '../../../lib/embedded-data';
import { type AsyncState, useAsync } from '../../../lib/use-async';

export const organizationQuery = (orgId: string) =>
  apiQuery<OrganizationResponse>(apiPaths.organization(orgId));

export async function getOrganization(orgId: string, signal?: AbortSignal): Promise<Organization> {
  return (await fetchQuery(organizationQuery(orgId), signal)).organization;
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
    embedded(organizationQuery(orgId), (body) => body.organization),
  );
  return usable ? { status: 'success', data: usable, error: undefined } : state;
}
