import { describe, expect, it } from 'vitest';
import { type Availability, fullKey, pageDates, pickerDays } from './reschedule-days';

// 10:00 in Douala on Friday 20 Nov 2026 (the suite runs under UTC+14, where it is 23:00).
const NOW = new Date('2026-11-20T09:00:00Z');
const ZONE = 'Africa/Douala';

const availability: Availability = {
  slots: [
    { id: 's9', start: 9 * 60 },
    { id: 's10', start: 10 * 60 + 30 },
    { id: 's11', start: 11 * 60 },
  ],
  openDays: [1, 2, 3, 4, 5],
  closures: ['2026-11-24'],
  full: new Set([fullKey('2026-11-23', 's11')]),
  lastDate: '2026-11-25',
};

describe('pageDates', () => {
  it('starts today, pages by seven days and stops at the last bookable date', () => {
    expect(pageDates('2026-11-20', 0, '2027-01-01')).toEqual([
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
    ]);
    expect(pageDates('2026-11-20', 1, '2026-11-29')).toEqual([
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect(pageDates('2026-11-20', 2, '2026-11-29')).toEqual([]);
  });
});

describe('pickerDays', () => {
  const days = pickerDays(
    ['2026-11-20', '2026-11-21', '2026-11-23', '2026-11-24'],
    availability,
    { date: '2026-11-23', slotId: 's9' },
    ZONE,
    NOW,
  );
  const byDate = Object.fromEntries(days.map((d) => [d.date, d]));

  it('leaves out the times already begun today in the organization zone', () => {
    expect(byDate['2026-11-20']?.free.map((s) => s.time)).toEqual(['10:30', '11:00']);
  });

  it('offers nothing on a weekday it is closed or on a closure date', () => {
    expect(byDate['2026-11-21']).toMatchObject({ closed: true, free: [] });
    expect(byDate['2026-11-24']).toMatchObject({ closed: true, free: [] });
  });

  it('leaves out full slots and the booking own slot, which it names as current', () => {
    expect(byDate['2026-11-23']).toMatchObject({
      closed: false,
      current: '09:00',
      free: [{ id: 's10', time: '10:30' }],
    });
  });

  it('marks today over once every slot has started, not full', () => {
    const late = new Date('2026-11-20T10:05:00Z'); // 11:05 in Douala: 11:00 has started
    const [today, monday] = pickerDays(
      ['2026-11-20', '2026-11-23'],
      availability,
      { date: '2026-11-25', slotId: 's9' },
      ZONE,
      late,
    );
    expect(today).toMatchObject({ closed: false, over: true, free: [] });
    expect(monday).toMatchObject({ over: false });
    expect(byDate['2026-11-20']?.over).toBe(false);
    expect(byDate['2026-11-21']?.over).toBe(false); // closed, not over
  });
});
