import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeCameroonMobile } from './phone.js';
import {
  addDays,
  dayOfWeek,
  formatMinutes,
  isIsoDate,
  isSlotInPast,
  parseTimeOfDay,
  weekStart,
  zonedInstant,
  zonedNow,
} from './time.js';

describe('dates as yyyy-MM-dd strings', () => {
  it('validates real calendar dates only', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('2026-1-01')).toBe(false);
    expect(isIsoDate('2026-01-0a')).toBe(false);
    expect(isIsoDate('2026-00-10')).toBe(false);
    expect(isIsoDate('1900-02-29')).toBe(false);
    expect(isIsoDate('2000-02-29')).toBe(true);
  });

  it('agrees with the calendar of Date on every text of the shape', () => {
    const byDate = (value: string) => {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      if (!match) return false;
      const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
      const utc = new Date(Date.UTC(y, m - 1, d));
      return utc.getUTCFullYear() === y && utc.getUTCMonth() === m - 1 && utc.getUTCDate() === d;
    };
    const digits = (n: number) =>
      fc.array(fc.constantFrom(...'0123456789'), { minLength: n, maxLength: n });
    const text = fc
      .tuple(digits(4), digits(2), digits(2), fc.constantFrom('-', '/', 'x'))
      .map(
        ([y, m, d, sep]) => `${y.join('')}-${m.join('')}${sep === '-' ? '-' : sep}${d.join('')}`,
      );
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 12 })), (value) => {
        expect(isIsoDate(value)).toBe(byDate(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('starts weeks on Sunday and adds days across months and years', () => {
    expect(weekStart('2026-03-04')).toBe('2026-03-01');
    expect(weekStart('2026-03-01')).toBe('2026-03-01');
    expect(weekStart('2027-01-02')).toBe('2026-12-27');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(dayOfWeek('2026-11-25')).toBe(3);
  });

  it('weekStart is always a Sunday at most 6 days before', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40_000 }), (n) => {
        const date = addDays('2000-01-01', n);
        const sunday = weekStart(date);
        expect(dayOfWeek(sunday)).toBe(0);
        expect(date >= sunday && addDays(sunday, 6) >= date).toBe(true);
      }),
    );
  });
});

describe('time zones', () => {
  it('computes Douala wall-clock time (UTC+1) whatever the process zone', () => {
    expect(zonedNow('Africa/Douala', new Date('2026-03-04T23:30:00Z'))).toEqual({
      date: '2026-03-05',
      minutes: 30,
    });
    expect(zonedNow('Africa/Douala', new Date('2026-03-04T07:00:00Z'))).toEqual({
      date: '2026-03-04',
      minutes: 480,
    });
  });

  it('a slot is past once its start has come in the organization zone', () => {
    const at = new Date('2026-03-04T07:00:00Z'); // 08:00 in Douala
    expect(isSlotInPast('2026-03-04', 480, 'Africa/Douala', at)).toBe(true);
    expect(isSlotInPast('2026-03-04', 510, 'Africa/Douala', at)).toBe(false);
    expect(isSlotInPast('2026-03-03', 1000, 'Africa/Douala', at)).toBe(true);
    expect(isSlotInPast('2026-03-05', 0, 'Africa/Douala', at)).toBe(false);
  });

  it('formats and parses times of day without any Date', () => {
    expect(formatMinutes(8 * 60)).toBe('08:00');
    expect(parseTimeOfDay('08:30:00')).toBe(510);
    expect(parseTimeOfDay('8:30')).toBeNull();
    expect(parseTimeOfDay('24:00')).toBe(1440);
    expect(parseTimeOfDay('23:60')).toBeNull();
  });
});

describe('Cameroonian mobile numbers', () => {
  it('accepts local and international forms and normalizes to E.164', () => {
    for (const input of [
      '677123456',
      '+237677123456',
      '237677123456',
      '00237 677 12 34 56',
      '6 77 12 34 56',
      '+237 677-123-456',
    ]) {
      expect(normalizeCameroonMobile(input)).toBe('+237677123456');
    }
  });

  it('rejects landlines, short numbers and other countries', () => {
    for (const input of ['233123456', '67712345', '6771234567', '+234677123456', 'abc', '']) {
      expect(normalizeCameroonMobile(input)).toBeNull();
    }
  });
});

describe('zonedInstant: a wall time in a zone as an instant', () => {
  it('reads Douala (UTC+1), Kiritimati (UTC+14) and UTC wall times, whatever the machine zone', () => {
    expect(zonedInstant('2026-03-05', 9 * 60 + 30, 'Africa/Douala').toISOString()).toBe(
      '2026-03-05T08:30:00.000Z',
    );
    expect(zonedInstant('2026-03-05', 0, 'Pacific/Kiritimati').toISOString()).toBe(
      '2026-03-04T10:00:00.000Z',
    );
    expect(zonedInstant('2026-03-05', 24 * 60, 'UTC').toISOString()).toBe(
      '2026-03-06T00:00:00.000Z',
    );
    // Either side of a daylight-saving change (Paris: UTC+1 until 29 March 2026, 02:00).
    expect(zonedInstant('2026-03-28', 10 * 60, 'Europe/Paris').toISOString()).toBe(
      '2026-03-28T09:00:00.000Z',
    );
    expect(zonedInstant('2026-03-29', 10 * 60, 'Europe/Paris').toISOString()).toBe(
      '2026-03-29T08:00:00.000Z',
    );
  });

  it('gives back the wall time zonedNow reads (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 24 * 60 - 1 }),
        fc.constantFrom('Africa/Douala', 'Pacific/Kiritimati', 'America/Sao_Paulo', 'UTC'),
        (day, minutes, zone) => {
          const date = addDays('2024-01-01', day);
          expect(zonedNow(zone, zonedInstant(date, minutes, zone))).toEqual({ date, minutes });
        },
      ),
    );
  });

  it('inverts zonedNow, also across summer-time changes', () => {
    for (const tz of ['Africa/Douala', 'Europe/Paris', 'America/New_York', 'Pacific/Kiritimati']) {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 3 * 366 * 24 * 4 }), (quarter) => {
          const instant = new Date(Date.UTC(2026, 0, 1) + quarter * 15 * 60_000);
          const wall = zonedNow(tz, instant);
          const back = zonedInstant(wall.date, wall.minutes, tz);
          // A repeated wall time (clocks going back) maps to its first occurrence.
          expect(zonedNow(tz, back)).toEqual(wall);
          expect(back.getTime()).toBeLessThanOrEqual(instant.getTime());
          expect(instant.getTime() - back.getTime()).toBeLessThanOrEqual(3_600_000);
        }),
      );
    }
  });

  it('reads a repeated wall time as its first occurrence, a skipped one past the jump', () => {
    // Paris, 25 October 2026: 03:00 → 02:00, so 02:30 happens twice (first in summer time).
    expect(zonedInstant('2026-10-25', 150, 'Europe/Paris').toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    // Paris, 29 March 2026: 02:00 → 03:00; 02:30 does not exist and reads as 03:30.
    expect(zonedInstant('2026-03-29', 150, 'Europe/Paris').toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    );
  });
});
