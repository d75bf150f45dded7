import type { Slot } from '@qless/contract';
import { minutesToWire } from '@qless/contract/core';
import { describe, expect, it } from 'vitest';
import { isClosedDay, slotState, sortSlots, takenSet } from './availability';

const slot = (id: string, minutes: number): Slot => ({
  id,
  service_id: 'svc',
  start_time: minutesToWire(minutes),
  end_time: minutesToWire(minutes + 30),
});

const ZONE = 'Africa/Douala';
// 2026-03-11 09:15 in Douala (UTC+1) = 08:15 UTC.
const NOW = new Date('2026-03-11T08:15:00Z');

describe('slotState', () => {
  const taken = takenSet([{ booking_date: '2026-03-12', slot_id: 'b' }]);
  it('greys out slots that started earlier today in the organization zone', () => {
    expect(slotState(slot('a', 9 * 60), '2026-03-11', taken, ZONE, NOW)).toBe('past');
    expect(slotState(slot('a', 9 * 60 + 15), '2026-03-11', taken, ZONE, NOW)).toBe('past');
    expect(slotState(slot('a', 9 * 60 + 30), '2026-03-11', taken, ZONE, NOW)).toBe('free');
  });
  it('treats earlier days as past and later days as future', () => {
    expect(slotState(slot('a', 23 * 60), '2026-03-10', taken, ZONE, NOW)).toBe('past');
    expect(slotState(slot('a', 0), '2026-03-12', taken, ZONE, NOW)).toBe('free');
  });
  it('greys out booked slots only on their date', () => {
    expect(slotState(slot('b', 10 * 60), '2026-03-12', taken, ZONE, NOW)).toBe('taken');
    expect(slotState(slot('b', 10 * 60), '2026-03-13', taken, ZONE, NOW)).toBe('free');
  });
  it('uses the organization zone, not UTC (the old one-hour bug)', () => {
    // 08:30 has passed in Douala (09:15) although it is only 08:15 UTC.
    expect(slotState(slot('a', 8 * 60 + 30), '2026-03-11', taken, ZONE, NOW)).toBe('past');
  });
});

describe('closed days', () => {
  const weekdays = [1, 2, 3, 4, 5];
  it('closes the weekdays the organization does not open and its closure dates', () => {
    expect(isClosedDay('2026-03-15', weekdays, [])).toBe(true); // Sunday
    expect(isClosedDay('2026-03-16', weekdays, [])).toBe(false); // Monday
    expect(isClosedDay('2026-03-16', weekdays, ['2026-03-16'])).toBe(true);
  });
  it("shows a closed day's slots as closed, not free nor taken", () => {
    expect(slotState(slot('b', 10 * 60), '2026-03-12', takenSet([]), ZONE, NOW, true)).toBe(
      'closed',
    );
    const taken = takenSet([{ booking_date: '2026-03-12', slot_id: 'b' }]);
    expect(slotState(slot('b', 10 * 60), '2026-03-12', taken, ZONE, NOW, true)).toBe('closed');
    // A past slot stays past.
    expect(slotState(slot('a', 9 * 60), '2026-03-11', taken, ZONE, NOW, true)).toBe('past');
  });
});

describe('sortSlots', () => {
  it('orders by start time', () => {
    expect(sortSlots([slot('x', 600), slot('y', 480)]).map((s) => s.id)).toEqual(['y', 'x']);
  });
});
