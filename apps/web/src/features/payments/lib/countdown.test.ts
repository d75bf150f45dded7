import { describe, expect, it } from 'vitest';
import { formatCountdown, remainingMs, spokenRemaining, ussdHref } from './countdown';

const HOLD_END = '2026-03-16T08:40:00.000Z';
const at = (iso: string) => Date.parse(iso);

describe('remainingMs and formatCountdown, against an injected clock', () => {
  it('counts down to the hold expiry as mm:ss, rounding up', () => {
    const left = (iso: string) => formatCountdown(remainingMs(HOLD_END, at(iso)));
    expect(left('2026-03-16T08:30:00.000Z')).toBe('10:00');
    expect(left('2026-03-16T08:30:00.400Z')).toBe('10:00');
    expect(left('2026-03-16T08:30:01.000Z')).toBe('09:59');
    expect(left('2026-03-16T08:39:59.001Z')).toBe('00:01');
    expect(left('2026-03-16T08:40:00.000Z')).toBe('00:00');
  });

  it('never goes below zero; an unreadable deadline counts as over', () => {
    expect(remainingMs(HOLD_END, at('2026-03-16T09:00:00Z'))).toBe(0);
    expect(formatCountdown(-5000)).toBe('00:00');
    expect(remainingMs('not a date', 0)).toBe(0);
  });

  it('shows hours as minutes (holds last up to 120 minutes)', () => {
    expect(formatCountdown(120 * 60_000)).toBe('120:00');
  });
});

describe('spokenRemaining: what the live region says, and when it changes', () => {
  it('rounds to 5 minutes above 5, then each minute, then the last minute, then over', () => {
    expect(spokenRemaining(10 * 60_000)).toEqual({ kind: 'minutes', minutes: 10 });
    expect(spokenRemaining(9 * 60_000 + 1)).toEqual({ kind: 'minutes', minutes: 10 });
    expect(spokenRemaining(6 * 60_000 - 1)).toEqual({ kind: 'minutes', minutes: 10 });
    expect(spokenRemaining(5 * 60_000)).toEqual({ kind: 'minutes', minutes: 5 });
    expect(spokenRemaining(2 * 60_000 - 1)).toEqual({ kind: 'minutes', minutes: 2 });
    expect(spokenRemaining(60_000)).toEqual({ kind: 'lastMinute' });
    expect(spokenRemaining(1)).toEqual({ kind: 'lastMinute' });
    expect(spokenRemaining(0)).toEqual({ kind: 'over' });
  });

  it('changes 7 times over a 10-minute hold ticking every second, not 600', () => {
    const end = at(HOLD_END);
    const spoken: string[] = [];
    for (let now = end - 10 * 60_000; now <= end; now += 1000) {
      const text = JSON.stringify(spokenRemaining(remainingMs(HOLD_END, now)));
      if (spoken.at(-1) !== text) spoken.push(text);
    }
    expect(spoken.map((s) => JSON.parse(s))).toEqual([
      { kind: 'minutes', minutes: 10 },
      { kind: 'minutes', minutes: 5 },
      { kind: 'minutes', minutes: 4 },
      { kind: 'minutes', minutes: 3 },
      { kind: 'minutes', minutes: 2 },
      { kind: 'lastMinute' },
      { kind: 'over' },
    ]);
  });
});

describe('ussdHref', () => {
  it('encodes # so the dialler keeps the whole code', () => {
    expect(ussdHref('*126#')).toBe('tel:*126%23');
    expect(ussdHref('#150*50#')).toBe('tel:%23150*50%23');
  });
});
