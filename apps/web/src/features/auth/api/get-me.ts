import type { MeResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** Who is signed in (the cookie says); a 401 means nobody. */
export function getMe(signal?: AbortSignal): Promise<MeResponse> {
  return apiFetch<MeResponse>(apiPaths.me(), signal ? { signal } : {});
}
