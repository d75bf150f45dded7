import type { CreateServiceRequest } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import type { ServiceChange } from './update-service';

/** POST /api/v1/{organization_id}/services, the spec's body plus the optional extras. */
export function createService(
  orgId: string,
  request: CreateServiceRequest,
): Promise<ServiceChange> {
  return apiFetch<ServiceChange>(apiPaths.createService(orgId), {
    method: 'POST',
    body: { ...request, organization_id: orgId },
  });
}
