import type { MeResponse } from '@qless/contract';
import { ApiError, apiFetch } from './api-client';
import { apiPaths } from './api-paths';

/**
 * The signed-in account (by its HttpOnly cookie), or null when signed out (a 401). Here, not
 * in a feature: the session and the operator console both ask it, and features never import
 * each other.
 */
export async function getMe(signal?: AbortSignal): Promise<MeResponse | null> {
  try {
    return await apiFetch<MeResponse>(apiPaths.me(), signal ? { signal } : {});
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}
