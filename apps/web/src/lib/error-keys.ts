import type { ErrorCode } from '@qless/contract';
import type { MessageKey } from '../i18n/en';

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
  INVALID_TOKEN: 'error.INVALID_TOKEN',
  TOKEN_EXPIRED: 'error.TOKEN_EXPIRED',
  TOKEN_USED: 'error.TOKEN_USED',
  WEAK_PASSWORD: 'error.WEAK_PASSWORD',
  EMAIL_TAKEN: 'error.EMAIL_TAKEN',
  ALREADY_HANDLED: 'error.ALREADY_HANDLED',
  CANNOT_DISABLE_SELF: 'error.CANNOT_DISABLE_SELF',
  INVITATION_ACCEPTED: 'error.INVITATION_ACCEPTED',
  INVALID_TIME_ZONE: 'error.INVALID_TIME_ZONE',
  FORBIDDEN: 'error.FORBIDDEN',
  UNAUTHORIZED: 'error.UNAUTHORIZED',
};

export function errorCodeKey(code: ErrorCode | null): MessageKey | null {
  return (code && KEYS[code]) ?? null;
}
