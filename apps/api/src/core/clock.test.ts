import { describe, expect, it } from 'vitest';
import { clockStartingAt } from './clock.js';

describe('clockStartingAt', () => {
  it('starts at the given instant and then moves as much as real time does', () => {
    let real = Date.parse('2026-01-01T00:00:00Z');
    const clock = clockStartingAt(new Date('2030-05-08T08:30:00Z'), () => real);
    expect(clock.now().toISOString()).toBe('2030-05-08T08:30:00.000Z');
    real += 90_000;
    expect(clock.now().toISOString()).toBe('2030-05-08T08:31:30.000Z');
  });

  it('moves forward when told (a browser test makes the morning pass), never back', () => {
    const real = Date.parse('2026-01-01T00:00:00Z');
    const clock = clockStartingAt(new Date('2030-05-08T08:30:00Z'), () => real);
    clock.advance(5 * 60_000);
    expect(clock.now().toISOString()).toBe('2030-05-08T08:35:00.000Z');
    clock.advance(-60_000);
    expect(clock.now().toISOString()).toBe('2030-05-08T08:35:00.000Z');
  });
});
