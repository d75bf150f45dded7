import { ApiError } from './api-client';

/**
 * The API said the thing asked for does not exist: 404, or 400 INVALID_ID for an id that
 * cannot exist (a mangled link) — as opposed to a load that failed (network, 5xx).
 */
export function isNotFound(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 404 || (error.status === 400 && error.code === 'INVALID_ID'))
  );
}
