import type { MessageKey } from '../../../i18n/en';
import type { Params } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { errorCodeKey } from '../../../lib/error-keys';

/** What the login toast says for a failed sign-in: a message key and its parameters. */
export function loginErrorMessage(error: unknown): { key: MessageKey; params?: Params } {
  if (!(error instanceof ApiError)) return { key: 'login.failed' };
  if (error.status === 0) return { key: 'error.network' };
  if (error.code === 'TOO_MANY_LOGIN_ATTEMPTS') {
    // Retry-After is in seconds; people read minutes ("try again in 12 minutes").
    const minutes =
      error.retryAfter === null ? null : Math.max(1, Math.ceil(error.retryAfter / 60));
    return minutes === null
      ? { key: 'error.TOO_MANY_LOGIN_ATTEMPTS' }
      : { key: 'login.tooManyRetry', params: { minutes } };
  }
  const key = errorCodeKey(error.code);
  if (key) return { key };
  if (error.status === 429) return { key: 'error.RATE_LIMITED' };
  return { key: 'login.failed' };
}
