import { ApiError } from './api-client';

/** The API said the thing asked for does not exist (404), as opposed to a failed load. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
