import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { isNotFound } from './load-errors';

describe('isNotFound', () => {
  it('is true for an unknown id (404) and an impossible one (400 INVALID_ID)', () => {
    expect(isNotFound(new ApiError(404, 'ORGANIZATION_NOT_FOUND', 'No such organization.'))).toBe(
      true,
    );
    expect(isNotFound(new ApiError(400, 'INVALID_ID', 'Bad id'))).toBe(true);
  });
  it('is false for failed loads: network, server errors, other refusals', () => {
    expect(isNotFound(new ApiError(0, null, 'Network error'))).toBe(false);
    expect(isNotFound(new ApiError(503, 'DATABASE_UNAVAILABLE', 'Down'))).toBe(false);
    expect(isNotFound(new ApiError(400, 'INVALID_DATE', 'Bad date'))).toBe(false);
    expect(isNotFound(new Error('boom'))).toBe(false);
  });
});
