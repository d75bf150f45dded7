import type { MessageKey } from '../../../i18n/en';
import { ApiError } from '../../../lib/api-client';
import { errorCodeKey } from '../../../lib/error-keys';

export interface FormErrors<F extends string> {
  /** The message under each field the server (or the browser-side check) refused. */
  fields: Partial<Record<F, MessageKey>>;
  /** Problems that belong to no field of the form (network, a refusal, an unknown field). */
  other: MessageKey[];
}

/**
 * Turns a failed save into messages: each `details` entry goes under its field (the first
 * segment of its path, e.g. `open_days.2` → `open_days`), in the form's own words when it
 * has them, else in the words of the entry's error code.
 */
export function formErrors<F extends string>(
  error: unknown,
  fieldKeys: Record<F, MessageKey | null>,
): FormErrors<F> {
  const result: FormErrors<F> = { fields: {}, other: [] };
  if (!(error instanceof ApiError)) return { ...result, other: ['error.generic'] };
  if (error.status === 0) return { ...result, other: ['error.network'] };
  const isField = (name: string): name is F => Object.hasOwn(fieldKeys, name);
  for (const problem of error.details) {
    const field = problem.path.split('.')[0] ?? '';
    const key = (isField(field) ? fieldKeys[field] : null) ?? errorCodeKey(problem.code);
    if (isField(field)) result.fields[field] ??= key ?? 'error.VALIDATION_FAILED';
    else if (key && !result.other.includes(key)) result.other.push(key);
  }
  if (error.details.length === 0) {
    const field = error.code === 'INVALID_HOURS' ? 'end_time' : null;
    const key = errorCodeKey(error.code);
    if (field && isField(field)) result.fields[field] = key ?? 'error.VALIDATION_FAILED';
    else if (key) result.other.push(key);
    else if (error.status >= 500) result.other.push('error.generic');
  }
  return result;
}
