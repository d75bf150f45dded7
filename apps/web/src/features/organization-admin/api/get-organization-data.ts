import type { OrganizationDataResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** The signed-in admin's organization: profile, services and the dashboard's numbers. */
export function getOrganizationData(signal?: AbortSignal): Promise<OrganizationDataResponse> {
  return apiFetch<OrganizationDataResponse>(apiPaths.organizationData(), signal ? { signal } : {});
}
