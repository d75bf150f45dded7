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
  PRIORITY_CATEGORY_NOT_SERVED: 'queue.error.PRIORITY_CATEGORY_NOT_SERVED',
  CALL_REASON_REQUIRED: 'queue.error.CALL_REASON_REQUIRED',
  TRANSFER_COUNTER_CLOSED: 'queue.error.TRANSFER_COUNTER_CLOSED',
  BOARD_NOT_FOUND: 'queue.error.BOARD_NOT_FOUND',
  NO_SHOW_TOO_EARLY: 'queue.error.NO_SHOW_TOO_EARLY',
  NOTHING_TO_UNDO: 'queue.error.NOTHING_TO_UNDO',
  KIOSK_NOT_FOUND: 'queue.error.KIOSK_NOT_FOUND',
  INVALID_PAPER: 'queue.error.INVALID_PAPER',
  INVALID_SMS_KEYWORD: 'queue.error.INVALID_SMS_KEYWORD',
  SMS_KEYWORD_TAKEN: 'queue.error.SMS_KEYWORD_TAKEN',
  // The link to the database broke during the save: the screen reads the
  // counter again (the act's `finally`) and never repeats the act by itself.
  OUTCOME_UNKNOWN: 'queue.error.OUTCOME_UNKNOWN',
};

/**
 * Answers that are the queue's normal life, not failures: nobody waiting,
 * another counter was quicker, the undo window passed. Said neutrally, never in red.
 */
const NORMAL: ReadonlySet<string> = new Set([
  'QUEUE_EMPTY',
  'COUNTER_BUSY',
  'COUNTER_IDLE',
  'VISIT_NOT_ACTIONABLE',
  'VISIT_NOT_FOUND',
  'NO_SHOW_TOO_EARLY',
  'NOTHING_TO_UNDO',
]);

/** The tone of a failed queue call's notice: neutral for the queue's normal states. */
export function queueNoticeTone(error: unknown): 'info' | 'error' {
  return error instanceof ApiError && error.code && NORMAL.has(error.code) ? 'info' : 'error';
}

/** The message for a failed queue call: the queue's words first, then the app's. */
export function queueErrorKey(error: unknown): MessageKey {
  if (error instanceof ApiError && error.code) {
    const key = QUEUE_KEYS[error.code];
    if (key) return key;
  }
  return apiErrorKey(error);
}
