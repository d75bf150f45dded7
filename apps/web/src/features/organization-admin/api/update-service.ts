import type { AdminService, UpdateServiceRequest } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

export interface ServiceChange {
  service: AdminService;
  /** Upcoming bookings the change left outside the service's slots (now flagged). */
  flagged_bookings: number;
}

/** Any subset of the service's fields; `active: false` deactivates it. */
export function updateService(
  serviceId: string,
  request: UpdateServiceRequest,
): Promise<ServiceChange> {
  return apiFetch<ServiceChange>(apiPaths.updateService(serviceId), {
    method: 'PATCH',
    body: request,
  });
}
