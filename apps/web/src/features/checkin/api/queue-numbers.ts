import type { QueueTodayResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/**
 * The queue number of each booking checked in today (booking id → "A-042"): the desk says
 * it aloud as it hands the visitor on to the counters (the Today screen is the
 * door of the counter screen).
 */
export async function getQueueNumbers(signal?: AbortSignal): Promise<Map<string, string>> {
  const today = await apiFetch<QueueTodayResponse>(apiPaths.queueToday(), signal ? { signal } : {});
  return bookingNumbers(today.visits);
}

/** A booking's latest visit gives its number (a transfer keeps the number). */
export function bookingNumbers(
  visits: readonly { booking_id: string | null; number: string }[],
): Map<string, string> {
  const numbers = new Map<string, string>();
  for (const v of visits) {
    if (v.booking_id && !numbers.has(v.booking_id)) numbers.set(v.booking_id, v.number);
  }
  return numbers;
}
