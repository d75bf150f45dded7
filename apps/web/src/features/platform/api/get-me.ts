import type { MeResponse } from '@qless/contract';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** The signed-in account (by its HttpOnly cookie), or null when signed out. */
export async function getMe(signal?: AbortSignal): Promise<MeResponse | null> {
  try {
    return await apiFetch<MeResponse>(apiPaths.me(), signal ? { signal } : {});
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}
