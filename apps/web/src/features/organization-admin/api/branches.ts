import type {
  AdminBranchesResponse,
  BranchChangeResponse,
  CopyServiceRequest,
  CopyServiceResponse,
  CreateBranchRequest,
  UpdateBranchRequest,
} from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** The branches the signed-in account may act on (decision 024). */
export function getBranches(signal?: AbortSignal): Promise<AdminBranchesResponse> {
  return apiFetch<AdminBranchesResponse>(apiPaths.branches(), signal ? { signal } : {});
}

export function createBranch(request: CreateBranchRequest): Promise<BranchChangeResponse> {
  return apiFetch<BranchChangeResponse>(apiPaths.branches(), { method: 'POST', body: request });
}

/** Names and places the branch this tab acts on. */
export function updateBranch(request: UpdateBranchRequest): Promise<BranchChangeResponse> {
  return apiFetch<BranchChangeResponse>(apiPaths.branch(), { method: 'PATCH', body: request });
}

export function copyService(
  serviceId: string,
  request: CopyServiceRequest,
): Promise<CopyServiceResponse> {
  return apiFetch<CopyServiceResponse>(apiPaths.copyService(serviceId), {
    method: 'POST',
    body: request,
  });
}
