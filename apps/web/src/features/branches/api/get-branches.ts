import type { PublicBranchesResponse } from '@qless/contract';
import { apiQuery, fetchQuery } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { embedded } from '../../../lib/embedded-data';
import { type AsyncState, useAsync } from '../../../lib/use-async';

/** The organization (its head) and its listed branches; the server embeds it for the first paint. */
export const branchesQuery = (orgId: string) =>
  apiQuery<PublicBranchesResponse>(apiPaths.organizationBranches(orgId));

export function getBranches(orgId: string, signal?: AbortSignal): Promise<PublicBranchesResponse> {
  return fetchQuery(branchesQuery(orgId), signal);
}

/** Change `reloadKey` to try again. */
export function useBranches(orgId: string, reloadKey = 0): AsyncState<PublicBranchesResponse> {
  return useAsync(
    (signal) => getBranches(orgId, signal),
    [orgId, reloadKey],
    false,
    embedded(branchesQuery(orgId), (body) => body),
  );
}
