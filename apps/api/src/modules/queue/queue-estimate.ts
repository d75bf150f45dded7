/**
 * Honest waits (issue 19 item 6): what the organization really does — a rolling median of
 * recent service times per service (the service's duration until there is history), the
 * people ahead and the counters open for that service — shown as a range, never one minute.
 * Pure; calibrated by the day simulation in queue-estimate.test.ts (decision 020).
 */
import type { WaitEstimate } from '@qless/contract';

/** How many of a service's latest finished visits the median looks at. */
export const RECENT_SERVICE_TIMES = 20;
/** Fewer finished visits than this: the service's configured duration is used. */
export const MIN_HISTORY = 3;

/** The typical minutes of one visit of a service. */
export function typicalServiceMinutes(
  recentMinutes: readonly number[],
  durationMinutes: number,
): number {
  if (recentMinutes.length < MIN_HISTORY) return durationMinutes;
  const sorted = [...recentMinutes].slice(-RECENT_SERVICE_TIMES).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return Math.max(1, median);
}

/**
 * The wait of someone with `ahead` people before them, `counters` counters open for their
 * service, each visit taking about `serviceMinutes`: a range around ahead × minutes ÷ counters.
 * No counter open: counted as one (someone will open), the range widened.
 */
export function estimateWait(
  ahead: number,
  counters: number,
  serviceMinutes: number,
): WaitEstimate {
  const open = Math.max(1, counters);
  const expected = (ahead * serviceMinutes) / open;
  const spread = counters === 0 ? 0.8 : 0.4;
  const low = Math.floor((expected * (1 - spread)) / 5) * 5;
  const high = Math.max(low + 5, Math.ceil((expected * (1 + spread)) / 5) * 5);
  return { min_minutes: Math.max(0, low), max_minutes: high };
}
