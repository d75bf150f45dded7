import { describe, expect, it } from 'vitest';
import { afterQuietHours } from './message-door.js';

/** Quiet hours (decision 140) on the organization's clock, whatever the machine's zone. */
describe('quiet hours', () => {
  const at = (iso: string, zone: string) => afterQuietHours(new Date(iso), zone).toISOString();

  it('leaves a daytime message alone and holds an evening or night one until 07:00', () => {
    // Douala is UTC+1: 20:59 is sent, 21:00 waits for 07:00 the next day, 06:59 for 07:00.
    expect(at('2026-03-04T19:59:00Z', 'Africa/Douala')).toBe('2026-03-04T19:59:00.000Z');
    expect(at('2026-03-04T20:00:00Z', 'Africa/Douala')).toBe('2026-03-05T06:00:00.000Z');
    expect(at('2026-03-04T23:30:00Z', 'Africa/Douala')).toBe('2026-03-05T06:00:00.000Z');
    expect(at('2026-03-05T05:59:00Z', 'Africa/Douala')).toBe('2026-03-05T06:00:00.000Z');
    expect(at('2026-03-05T06:00:00Z', 'Africa/Douala')).toBe('2026-03-05T06:00:00.000Z');
  });

  it('reads the day in the organization’s zone, across the date line and a clock change', () => {
    // 22:00 in Kiritimati (UTC+14) is 08:00 UTC the same day; its 07:00 is 17:00 UTC.
    expect(at('2026-03-04T08:00:00Z', 'Pacific/Kiritimati')).toBe('2026-03-04T17:00:00.000Z');
    // Paris moves to summer time on 29 March 2026: 07:00 that morning is 05:00 UTC.
    expect(at('2026-03-28T22:00:00Z', 'Europe/Paris')).toBe('2026-03-29T05:00:00.000Z');
  });
});
