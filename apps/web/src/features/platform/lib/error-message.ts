import type { MessageKey } from '../../../i18n/en';
import { ApiError } from '../../../lib/api-client';
import { errorCodeKey } from '../../../lib/error-keys';

/** The message key for a failed console call: by its code, else network or generic. */
export function consoleErrorKey(error: unknown): MessageKey {
  if (error instanceof ApiError) {
    if (error.status === 0) return 'error.network';
    const key = errorCodeKey(error.code);
    if (key) return key;
    if (error.status === 429) return 'error.RATE_LIMITED';
  }
  return 'error.generic';
}
