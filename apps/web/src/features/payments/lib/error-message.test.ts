import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { fr } from '../../../i18n/fr';
import { ApiError } from '../../../lib/api-client';
import {
  cancelErrorKey,
  failureReasonKey,
  isRetryableWithSameReference,
  paymentErrorKey,
} from './error-message';

describe('paymentErrorKey', () => {
  it('maps server codes to readable messages', () => {
    expect(paymentErrorKey(new ApiError(409, 'SLOT_TAKEN', 'x'))).toBe('error.SLOT_TAKEN');
    expect(paymentErrorKey(new ApiError(400, 'INVALID_PHONE', 'x'))).toBe('error.INVALID_PHONE');
    expect(paymentErrorKey(new ApiError(502, 'PROVIDER_UNAVAILABLE', 'x'))).toBe(
      'error.PROVIDER_UNAVAILABLE',
    );
    expect(paymentErrorKey(new ApiError(0, null, 'x'))).toBe('error.network');
    expect(paymentErrorKey(new ApiError(503, null, 'x'))).toBe('error.PROVIDER_UNAVAILABLE');
    expect(paymentErrorKey(new Error('boom'))).toBe('error.generic');
  });
  it('maps each field code the payment request can answer with', () => {
    expect(paymentErrorKey(new ApiError(400, 'INVALID_NAME', 'x'))).toBe('error.INVALID_NAME');
    expect(paymentErrorKey(new ApiError(400, 'INVALID_EMAIL', 'x'))).toBe('error.INVALID_EMAIL');
    for (const code of [
      'INVALID_AMOUNT',
      'INVALID_CURRENCY',
      'INVALID_DESCRIPTION',
      'INVALID_REFERENCE',
      'INVALID_ID',
      'INVALID_DATE',
      'INVALID_BODY',
    ] as const) {
      expect(paymentErrorKey(new ApiError(400, code, 'x')), code).toBe('error.VALIDATION_FAILED');
    }
  });
  it('reads the code, never the message', () => {
    const phoneInMessage = new ApiError(400, 'VALIDATION_FAILED', 'phone_number: Invalid phone');
    expect(paymentErrorKey(phoneInMessage)).toBe('error.VALIDATION_FAILED');
    const nameWithPhoneMessage = new ApiError(400, 'INVALID_NAME', 'Phone number is wrong');
    expect(paymentErrorKey(nameWithPhoneMessage)).toBe('error.INVALID_NAME');
    expect(paymentErrorKey(new ApiError(400, 'INVALID_PHONE', ''))).toBe('error.INVALID_PHONE');
  });
});

describe('isRetryableWithSameReference', () => {
  it('keeps the reference only for transient failures', () => {
    expect(isRetryableWithSameReference(new ApiError(502, 'PROVIDER_UNAVAILABLE', 'x'))).toBe(true);
    expect(isRetryableWithSameReference(new ApiError(409, 'SLOT_TAKEN', 'x'))).toBe(false);
    expect(isRetryableWithSameReference(new ApiError(400, 'INVALID_PHONE', 'x'))).toBe(false);
    expect(isRetryableWithSameReference(new ApiError(0, null, 'x'))).toBe(true);
    expect(isRetryableWithSameReference(new Error('boom'))).toBe(false);
  });
  it('keeps it after RATE_LIMITED, by code (its status, 429, is not a 5xx)', () => {
    expect(isRetryableWithSameReference(new ApiError(429, 'RATE_LIMITED', 'x'))).toBe(true);
  });
});

describe('initiation errors the customer must read right', () => {
  it('SLOT_TAKEN by the customer’s own hold does not blame someone else', () => {
    const taken = new ApiError(409, 'SLOT_TAKEN', 'x');
    expect(paymentErrorKey(taken, { ownHold: true })).toBe('booking.error.ownHold');
    expect(paymentErrorKey(taken, { ownHold: false })).toBe('error.SLOT_TAKEN');
    expect(en['booking.error.ownHold']).not.toMatch(/someone else/);
    expect(fr['booking.error.ownHold']).not.toMatch(/quelqu/);
  });
  it('a date past the booking horizon gets its own message', () => {
    expect(paymentErrorKey(new ApiError(400, 'DATE_OUT_OF_HORIZON', 'x'))).toBe(
      'booking.error.horizon',
    );
  });
});

describe('failureReasonKey', () => {
  it('names each reason the contract lists', () => {
    expect(failureReasonKey('DECLINED')).toBe('booking.failed.reason.declined');
    expect(failureReasonKey('SIMULATED_DECLINE')).toBe('booking.failed.reason.declined');
    expect(failureReasonKey('EXPIRED')).toBe('booking.failed.reason.not_approved_in_time');
    expect(failureReasonKey('TIMEOUT')).toBe('booking.failed.reason.provider_unavailable');
    expect(failureReasonKey('PROVIDER_UNAVAILABLE')).toBe(
      'booking.failed.reason.provider_unavailable',
    );
    // The reconciler's: the provider, asked by our id, never had the payment (no prompt sent).
    expect(failureReasonKey('NOT_AT_PROVIDER')).toBe('booking.failed.reason.provider_unavailable');
    expect(failureReasonKey('CANCELLED_BY_CUSTOMER')).toBe('booking.failed.reason.cancelled');
    expect(failureReasonKey('SUPERSEDED')).toBe('booking.failed.reason.cancelled');
  });
  it('names nothing for an unknown, missing or inherited code (the generic text stays)', () => {
    for (const code of ['CP-OWN-CODE', 'HTTP_418', '', null, undefined, 'toString', '__proto__']) {
      expect(failureReasonKey(code), String(code)).toBeNull();
    }
  });
  it('has a text in both languages for every reason', () => {
    for (const key of [
      'booking.failed.reason.declined',
      'booking.failed.reason.not_approved_in_time',
      'booking.failed.reason.provider_unavailable',
      'booking.failed.reason.cancelled',
    ] as const) {
      expect(en[key]).not.toBe(fr[key]);
    }
  });
});

describe('cancelErrorKey', () => {
  it('says offline when offline, else that the cancel did not go through', () => {
    expect(cancelErrorKey(new ApiError(0, null, 'x'))).toBe('error.network');
    expect(cancelErrorKey(new ApiError(404, 'NOT_FOUND', 'x'))).toBe(
      'booking.processing.cancelFailed',
    );
  });
});
