import type { ErrorCode } from '@qless/contract';
import type { MessageKey } from '../../../i18n/en';
import { ApiError } from '../../../lib/api-client';
import { apiErrorKey } from '../../../lib/error-keys';

/** The queue's own refusals, each in words a clerk can act on. */
const QUEUE_KEYS: Partial<Record<ErrorCode, MessageKey>> = {
  COUNTER_BUSY: 'queue.error.COUNTER_BUSY',
  COUNTER_CLOSED: 'queue.error.COUNTER_CLOSED',
  COUNTER_IDLE: 'queue.error.COUNTER_IDLE',
  COUNTER_NOT_FOUND: 'queue.error.COUNTER_NOT_FOUND',
  QUEUE_EMPTY: 'queue.error.QUEUE_EMPTY',
  QUEUE_CLOSED: 'queue.error.QUEUE_CLOSED',
  QUEUE_FULL: 'queue.error.QUEUE_FULL',
  TOO_MANY_VISITS: 'queue.error.QUEUE_FULL',
  VISIT_NOT_ACTIONABLE: 'queue.error.VISIT_NOT_ACTIONABLE',
  VISIT_NOT_FOUND: 'queue.error.VISIT_NOT_ACTIONABLE',
  SERVICE_NOT_AT_COUNTER: 'queue.error.SERVICE_NOT_AT_COUNTER',
  SERVICE_NOT_FOUND: 'queue.error.SERVICE_NOT_FOUND',
  INVALID_COUNTER: 'queue.error.INVALID_COUNTER',
  INVALID_QUEUE_SETTINGS: 'queue.error.INVALID_QUEUE_SETTINGS',
  BOARD_NOT_FOUND: 'queue.error.BOARD_NOT_FOUND',
};

/** The message for a failed queue call: the queue's words first, then the app's. */
export function queueErrorKey(error: unknown): MessageKey {
  if (error instanceof ApiError && error.code) {
    const key = QUEUE_KEYS[error.code];
    if (key) return key;
  }
  return apiErrorKey(error);
}
