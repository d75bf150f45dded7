import { describe, expect, it } from 'vitest';
import { formatCountdown, remainingMs, spokenRemaining, spokenSince, ussdHref } from './countdown';

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

describe('spokenSince: the time the countdown shows, not the checkpoint above it', () => {
  const MIN = 60_000;
  it('says about 10 minutes when the step opens at 10:17, not about 15', () => {
    const first = 10 * MIN + 17_000;
    expect(spokenSince(first, first)).toEqual({ kind: 'minutes', minutes: 10 });
    expect(spokenSince(first - 5_000, first)).toEqual({ kind: 'minutes', minutes: 10 });
  });

  it('keeps that until the next checkpoint, then says each one as it is crossed', () => {
    const first = 14 * MIN + 40_000; // about 15
    const spoken: string[] = [];
    for (let ms = first; ms >= 0; ms -= 1000) {
      const text = JSON.stringify(spokenSince(ms, first));
      if (spoken.at(-1) !== text) spoken.push(text);
    }
    expect(spoken.map((s) => JSON.parse(s))).toEqual([
      { kind: 'minutes', minutes: 15 },
      { kind: 'minutes', minutes: 10 },
      { kind: 'minutes', minutes: 5 },
      { kind: 'minutes', minutes: 4 },
      { kind: 'minutes', minutes: 3 },
      { kind: 'minutes', minutes: 2 },
      { kind: 'lastMinute' },
      { kind: 'over' },
    ]);
  });

  it('never says a time more than half a minute off the clock when it changes', () => {
    for (const first of [10 * MIN + 17_000, 7 * MIN + 59_000, 4 * MIN + 20_000, 90 * MIN]) {
      let last = '';
      for (let ms = first; ms > MIN; ms -= 1000) {
        const said = spokenSince(ms, first);
        const text = JSON.stringify(said);
        if (text === last) continue;
        last = text;
        if (said.kind === 'minutes') {
          expect(Math.abs(said.minutes * MIN - ms), `${first}: ${ms}`).toBeLessThanOrEqual(30_000);
        }
      }
    }
  });
});

describe('ussdHref', () => {
  it('encodes # so the dialler keeps the whole code', () => {
    expect(ussdHref('*126#')).toBe('tel:*126%23');
    expect(ussdHref('#150*50#')).toBe('tel:%23150*50%23');
  });
});
