import type { ErrorCode } from '@qless/contract';
import type { MessageKey } from '../i18n/en';
import { ApiError } from './api-client';

/**
 * The message shown for each error code the server answers with (the client switches on
 * `code` only; the server's message is for logs). A request field the customer cannot edit
 * (amount, currency, reference, ids…) gets the general "details are not valid" message.
 */
const KEYS: Partial<Record<ErrorCode, MessageKey>> = {
  VALIDATION_FAILED: 'error.VALIDATION_FAILED',
  INVALID_BODY: 'error.VALIDATION_FAILED',
  INVALID_NAME: 'error.INVALID_NAME',
  INVALID_EMAIL: 'error.INVALID_EMAIL',
  INVALID_PHONE: 'error.INVALID_PHONE',
  INVALID_MESSAGE: 'error.INVALID_MESSAGE',
  INVALID_AMOUNT: 'error.VALIDATION_FAILED',
  INVALID_CURRENCY: 'error.VALIDATION_FAILED',
  INVALID_DESCRIPTION: 'error.VALIDATION_FAILED',
  INVALID_REFERENCE: 'error.VALIDATION_FAILED',
  INVALID_ID: 'error.VALIDATION_FAILED',
  INVALID_DATE: 'error.VALIDATION_FAILED',
  SLOT_TAKEN: 'error.SLOT_TAKEN',
  SLOT_IN_PAST: 'error.SLOT_IN_PAST',
  PAYMENT_DECLINED: 'error.PAYMENT_DECLINED',
  PROVIDER_UNAVAILABLE: 'error.PROVIDER_UNAVAILABLE',
  RATE_LIMITED: 'error.RATE_LIMITED',
  TOO_MANY_HOLDS: 'error.TOO_MANY_HOLDS',
  PAYMENT_IN_PROGRESS: 'error.PAYMENT_IN_PROGRESS',
  REFERENCE_CONFLICT: 'error.REFERENCE_CONFLICT',
  NOT_FOUND: 'error.NOT_FOUND',
  SLOT_NOT_FOUND: 'error.NOT_FOUND',
  SERVICE_NOT_FOUND: 'error.NOT_FOUND',
  ORGANIZATION_NOT_FOUND: 'error.NOT_FOUND',
  // Signing in and the organization area.
  INVALID_CREDENTIALS: 'error.INVALID_CREDENTIALS',
  TOO_MANY_LOGIN_ATTEMPTS: 'error.TOO_MANY_LOGIN_ATTEMPTS',
  ACCOUNT_DISABLED: 'error.ACCOUNT_DISABLED',
  UNAUTHORIZED: 'error.UNAUTHORIZED',
  FORBIDDEN: 'error.FORBIDDEN',
  ORIGIN_NOT_ALLOWED: 'error.ORIGIN_NOT_ALLOWED',
  INVALID_DURATION: 'error.INVALID_DURATION',
  INVALID_CAPACITY: 'error.INVALID_CAPACITY',
  INVALID_LOCATION: 'error.INVALID_LOCATION',
  INVALID_TIME: 'error.INVALID_TIME',
  INVALID_HOURS: 'error.INVALID_HOURS',
  INVALID_TIME_ZONE: 'error.INVALID_TIME_ZONE',
  INVALID_OPEN_DAYS: 'error.INVALID_OPEN_DAYS',
  INVALID_CUTOFF: 'error.INVALID_CUTOFF',
  INVALID_IMAGE_URL: 'error.INVALID_IMAGE_URL',
  INVALID_IMAGE: 'error.INVALID_IMAGE',
  UNSUPPORTED_MEDIA_TYPE: 'error.INVALID_IMAGE',
  PAYLOAD_TOO_LARGE: 'error.PAYLOAD_TOO_LARGE',
  INVALID_DATE_RANGE: 'error.INVALID_DATE_RANGE',
  DATE_RANGE_TOO_LONG: 'error.DATE_RANGE_TOO_LONG',
  // Accounts, invitations and the operator console.
  INVALID_TOKEN: 'error.INVALID_TOKEN',
  TOKEN_EXPIRED: 'error.TOKEN_EXPIRED',
  TOKEN_USED: 'error.TOKEN_USED',
  WEAK_PASSWORD: 'error.WEAK_PASSWORD',
  EMAIL_TAKEN: 'error.EMAIL_TAKEN',
  BRANCH_FORBIDDEN: 'error.BRANCH_FORBIDDEN',
  BRANCH_NOT_FOUND: 'error.BRANCH_NOT_FOUND',
  INVALID_BRANCH: 'error.INVALID_BRANCH',
  ALREADY_HANDLED: 'error.ALREADY_HANDLED',
  CANNOT_DISABLE_SELF: 'error.CANNOT_DISABLE_SELF',
  INVITATION_ACCEPTED: 'error.INVITATION_ACCEPTED',
};

export function errorCodeKey(code: ErrorCode | null): MessageKey | null {
  return (code && KEYS[code]) ?? null;
}

/**
 * The message key for a failed call: by its code, else network or generic. Screens with
 * their own wording for some failures (login, payments, forms) check those first.
 */
export function apiErrorKey(error: unknown): MessageKey {
  if (error instanceof ApiError) {
    if (error.status === 0) return 'error.network';
    const key = errorCodeKey(error.code);
    if (key) return key;
    if (error.status === 429) return 'error.RATE_LIMITED';
  }
  return 'error.generic';
}
