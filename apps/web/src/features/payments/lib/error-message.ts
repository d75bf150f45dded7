import type { MessageKey } from '../../../i18n/en';
import { ApiError } from '../../../lib/api-client';
import { errorCodeKey } from '../../../lib/error-keys';

/** The translated message for a failed payment initiation; never the raw object. */
export function paymentErrorKey(error: unknown): MessageKey {
  if (error instanceof ApiError) {
    if (error.status === 0) return 'error.network';
    const key = errorCodeKey(error.code);
    if (key) return key;
    if (error.status === 429) return 'error.RATE_LIMITED';
    if (error.status >= 502 && error.status <= 504) return 'error.PROVIDER_UNAVAILABLE';
  }
  return 'error.generic';
}

/** Same submission may be retried with the same reference (idempotency) after these. */
export function isRetryableWithSameReference(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 0 ||
      error.code === 'PROVIDER_UNAVAILABLE' ||
      error.code === 'RATE_LIMITED' ||
      error.status >= 500)
  );
}
