import { useEffect, useState } from 'react';

/** Milliseconds left until `deadline` (ISO 8601) at `nowMs`; 0 once past or unreadable. */
export function remainingMs(deadline: string, nowMs: number): number {
  const end = Date.parse(deadline);
  return Number.isNaN(end) ? 0 : Math.max(0, end - nowMs);
}

/** "09:41": minutes and seconds left, rounded up so that 00:00 means the time is over. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/**
 * What a screen reader is told about the time left. The visible clock ticks every second;
 * this changes only every 5 minutes, then each of the last 5 minutes, then once in the last
 * minute and once at the end, so a polite live region speaks at those moments only.
 */
export type SpokenRemaining =
  | { kind: 'minutes'; minutes: number }
  | { kind: 'lastMinute' }
  | { kind: 'over' };

export function spokenRemaining(ms: number): SpokenRemaining {
  if (ms <= 0) return { kind: 'over' };
  if (ms <= 60_000) return { kind: 'lastMinute' };
  const minutes = Math.ceil(ms / 60_000);
  return { kind: 'minutes', minutes: minutes <= 5 ? minutes : Math.ceil(minutes / 5) * 5 };
}

/**
 * What the live region says `ms` before the end, when the step opened `firstMs` before it.
 * Until the first checkpoint of {@link spokenRemaining} is crossed, the time left when the
 * step opened, to the nearest minute (seen in a trial: at 10:17 it said "about 15 minutes", the
 * checkpoint above); from then on each checkpoint, which is the time left as it is crossed.
 * Constant between checkpoints, so a polite live region speaks only when they change.
 */
export function spokenSince(ms: number, firstMs: number): SpokenRemaining {
  const now = spokenRemaining(ms);
  const start = spokenRemaining(firstMs);
  if (JSON.stringify(now) !== JSON.stringify(start) || start.kind !== 'minutes') return now;
  return { kind: 'minutes', minutes: Math.max(2, Math.round(firstMs / 60_000)) };
}

/** The clock, read every `intervalMs` while mounted (injected in tests through `read`). */
export function useNowMs(intervalMs: number, read: () => number = Date.now): number {
  const [now, setNow] = useState(read);
  useEffect(() => {
    const timer = setInterval(() => setNow(read()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, read]);
  return now;
}

/** `tel:` link of a USSD code: `#` must be encoded (%23) or the dialler drops the rest. */
export function ussdHref(code: string): string {
  return `tel:${code.replace(/#/g, '%23')}`;
}
