import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { loginErrorMessage } from './login-error';

describe('loginErrorMessage', () => {
  it('says the credentials are wrong for INVALID_CREDENTIALS', () => {
    expect(loginErrorMessage(new ApiError(401, 'INVALID_CREDENTIALS', 'x'))).toEqual({
      key: 'error.INVALID_CREDENTIALS',
    });
  });
  it('gives the wait in whole minutes, rounded up, when the server sent Retry-After', () => {
    const error = new ApiError(429, 'TOO_MANY_LOGIN_ATTEMPTS', 'x', [], 61);
    expect(loginErrorMessage(error)).toEqual({
      key: 'login.tooManyRetry',
      params: { minutes: 2 },
    });
    const soon = new ApiError(429, 'TOO_MANY_LOGIN_ATTEMPTS', 'x', [], 5);
    expect(loginErrorMessage(soon).params).toEqual({ minutes: 1 });
  });
  it('still explains the limit without Retry-After', () => {
    expect(loginErrorMessage(new ApiError(429, 'TOO_MANY_LOGIN_ATTEMPTS', 'x'))).toEqual({
      key: 'error.TOO_MANY_LOGIN_ATTEMPTS',
    });
  });
  it('names a network failure', () => {
    expect(loginErrorMessage(new ApiError(0, null, 'Network error'))).toEqual({
      key: 'error.network',
    });
  });
  it('falls back to the spec text for anything else', () => {
    expect(loginErrorMessage(new ApiError(500, 'INTERNAL_ERROR', 'boom'))).toEqual({
      key: 'login.failed',
    });
    expect(loginErrorMessage(new Error('?'))).toEqual({ key: 'login.failed' });
  });
});
