import type { Organization, OrganizationListResponse } from '@qless/contract';
import { apiQuery, fetchQuery } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { embedded } from '../../../lib/embedded-data';
import { type AsyncState, useAsync } from '../../../lib/use-async';

/** Every organization (the services page's switcher). */
export const organizationsQuery = () =>
  apiQuery<OrganizationListResponse>(apiPaths.organizations());

export async function getOrganizations(signal?: AbortSignal): Promise<Organization[]> {
  return (await fetchQuery(organizationsQuery(), signal)).organizations;
}

/** The organization list; `initial` (from navigation state) skips the request. */
export function useOrganizations(initial?: Organization[] | null): AsyncState<Organization[]> {
  const state = useAsync(
    (signal) => getOrganizations(signal),
    [],
    Boolean(initial),
    embedded(organizationsQuery(), (body) => body.organizations),
  );
  return initial ? { status: 'success', data: initial, error: undefined } : state;
}
