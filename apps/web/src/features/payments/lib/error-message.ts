import type { MessageKey } from '../../../i18n/en';
import { ApiError } from '../../../lib/api-client';

const KNOWN: Partial<Record<string, MessageKey>> = {
  INVALID_PHONE: 'error.INVALID_PHONE',
  VALIDATION_FAILED: 'error.VALIDATION_FAILED',
  SLOT_TAKEN: 'error.SLOT_TAKEN',
  SLOT_IN_PAST: 'error.SLOT_IN_PAST',
  PAYMENT_DECLINED: 'error.PAYMENT_DECLINED',
  PROVIDER_UNAVAILABLE: 'error.PROVIDER_UNAVAILABLE',
  RATE_LIMITED: 'error.RATE_LIMITED',
  REFERENCE_CONFLICT: 'error.REFERENCE_CONFLICT',
  NOT_FOUND: 'error.NOT_FOUND',
  SLOT_NOT_FOUND: 'error.NOT_FOUND',
  SERVICE_NOT_FOUND: 'error.NOT_FOUND',
};

/** The translated message for a failed payment initiation; never the raw object. */
export function paymentErrorKey(error: unknown): MessageKey {
  if (error instanceof ApiError) {
    if (error.status === 0) return 'error.network';
    if (error.code === 'VALIDATION_FAILED' && /phone/i.test(error.message)) {
      return 'error.INVALID_PHONE';
    }
    const key = error.code ? KNOWN[error.code] : undefined;
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
