import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { isRetryableWithSameReference, paymentErrorKey } from './error-message';

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
