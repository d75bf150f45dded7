import type { ErrorCode } from '@qless/contract';
import type { MessageKey } from '../../../i18n/en';
import { ApiError } from '../../../lib/api-client';

/** The refusals the join page says in its own words (the rest: the general messages). */
const REFUSALS: Partial<Record<ErrorCode, MessageKey>> = {
  JOIN_DISABLED: 'queue.join.error.JOIN_DISABLED',
  QUEUE_CLOSED: 'queue.join.error.QUEUE_CLOSED',
  TOO_MANY_VISITS: 'queue.join.error.TOO_MANY_VISITS',
  // The organization's ceilings (decision 125).
  QUEUE_JOINS_BUSY: 'queue.join.error.QUEUE_JOINS_BUSY',
  SELF_JOIN_LINE_FULL: 'queue.join.error.SELF_JOIN_LINE_FULL',
  // The code shown in the hall (decision 125).
  JOIN_CODE_INVALID: 'queue.join.error.JOIN_CODE_INVALID',
  TOO_MANY_JOIN_CODE_TRIES: 'queue.join.error.TOO_MANY_JOIN_CODE_TRIES',
  INVALID_PHONE: 'queue.join.error.INVALID_PHONE',
  INVALID_NAME: 'queue.join.error.INVALID_NAME',
};

/** The message key of a failed join, by the server's code (a field's own code first). */
export function joinRefusalKey(error: unknown): MessageKey {
  if (!(error instanceof ApiError)) return 'error.generic';
  if (error.status === 0) return 'error.network';
  const detail = error.details.find((d) => d.code in REFUSALS)?.code;
  const key = (detail && REFUSALS[detail]) ?? (error.code && REFUSALS[error.code]);
  if (key) return key;
  if (error.status === 429) return 'error.RATE_LIMITED';
  return 'error.generic';
}
