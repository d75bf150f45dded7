import { PAYMENT_FAILURE_REASONS } from '@qless/contract/core';
import type { MessageKey } from '../../../i18n/en';
import { ApiError } from '../../../lib/api-client';
import { errorCodeKey } from '../../../lib/error-keys';

export interface InitiationContext {
  /** This device already holds the chosen slot with a payment in flight. */
  ownHold: boolean;
}

/** The translated message for a failed payment initiation; never the raw object. */
export function paymentErrorKey(
  error: unknown,
  context: InitiationContext = { ownHold: false },
): MessageKey {
  if (error instanceof ApiError) {
    if (error.status === 0) return 'error.network';
    // The hold is the customer's own (closed at "Processing Payment", then back on the slot):
    // "someone else" would be wrong.
    if (error.code === 'SLOT_TAKEN' && context.ownHold) return 'booking.error.ownHold';
    if (error.code === 'DATE_OUT_OF_HORIZON') return 'booking.error.horizon';
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

type FailureReason = (typeof PAYMENT_FAILURE_REASONS)[keyof typeof PAYMENT_FAILURE_REASONS];

const REASON_KEYS: Record<FailureReason, MessageKey> = {
  declined: 'booking.failed.reason.declined',
  not_approved_in_time: 'booking.failed.reason.not_approved_in_time',
  provider_unavailable: 'booking.failed.reason.provider_unavailable',
  cancelled: 'booking.failed.reason.cancelled',
};

/** Why a FAILED payment failed, from its `failure_code`; null when the code names no reason. */
export function failureReasonKey(code: string | null | undefined): MessageKey | null {
  if (!code || !Object.hasOwn(PAYMENT_FAILURE_REASONS, code)) return null;
  return REASON_KEYS[PAYMENT_FAILURE_REASONS[code as keyof typeof PAYMENT_FAILURE_REASONS]];
}

/** The message for a cancel request that did not go through. */
export function cancelErrorKey(error: unknown): MessageKey {
  if (error instanceof ApiError && error.status === 0) return 'error.network';
  return 'booking.processing.cancelFailed';
}
