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
  it('keeps the reference only for transient failures', () => {
    expect(isRetryableWithSameReference(new ApiError(502, 'PROVIDER_UNAVAILABLE', 'x'))).toBe(true);
    expect(isRetryableWithSameReference(new ApiError(409, 'SLOT_TAKEN', 'x'))).toBe(false);
  });
});
