import type { Slot } from '@qless/contract';
import { minutesToWire } from '@qless/contract/core';
import { describe, expect, it } from 'vitest';
import {
  isClosedDay,
  seatsLeft,
  seatsTakenMap,
  slotState,
  sortSlots,
  takenSet,
} from './availability';

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
    expect(slotState(slot('a', 9 * 60), '2026-03-11', { taken, timeZone: ZONE, now: NOW })).toBe(
      'past',
    );
    expect(
      slotState(slot('a', 9 * 60 + 15), '2026-03-11', { taken, timeZone: ZONE, now: NOW }),
    ).toBe('past');
    expect(
      slotState(slot('a', 9 * 60 + 30), '2026-03-11', { taken, timeZone: ZONE, now: NOW }),
    ).toBe('free');
  });
  it('treats earlier days as past and later days as future', () => {
    expect(slotState(slot('a', 23 * 60), '2026-03-10', { taken, timeZone: ZONE, now: NOW })).toBe(
      'past',
    );
    expect(slotState(slot('a', 0), '2026-03-12', { taken, timeZone: ZONE, now: NOW })).toBe('free');
  });
  it('greys out booked slots only on their date', () => {
    expect(slotState(slot('b', 10 * 60), '2026-03-12', { taken, timeZone: ZONE, now: NOW })).toBe(
      'taken',
    );
    expect(slotState(slot('b', 10 * 60), '2026-03-13', { taken, timeZone: ZONE, now: NOW })).toBe(
      'free',
    );
  });
  it('uses the organization zone, not UTC (the old one-hour bug)', () => {
    // 08:30 has passed in Douala (09:15) although it is only 08:15 UTC.
    expect(
      slotState(slot('a', 8 * 60 + 30), '2026-03-11', { taken, timeZone: ZONE, now: NOW }),
    ).toBe('past');
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
    expect(
      slotState(slot('b', 10 * 60), '2026-03-12', {
        taken: takenSet([]),
        timeZone: ZONE,
        now: NOW,
        closedDay: true,
      }),
    ).toBe('closed');
    const taken = takenSet([{ booking_date: '2026-03-12', slot_id: 'b' }]);
    expect(
      slotState(slot('b', 10 * 60), '2026-03-12', {
        taken: taken,
        timeZone: ZONE,
        now: NOW,
        closedDay: true,
      }),
    ).toBe('closed');
    // A past slot stays past.
    expect(
      slotState(slot('a', 9 * 60), '2026-03-11', {
        taken: taken,
        timeZone: ZONE,
        now: NOW,
        closedDay: true,
      }),
    ).toBe('past');
  });
});

describe('slots the customer cannot be sure of', () => {
  const ctx = { taken: takenSet([]), timeZone: ZONE, now: NOW, bookableUntil: '2026-05-10' };
  it('are not bookable past the horizon', () => {
    expect(slotState(slot('a', 600), '2026-05-10', ctx)).toBe('free');
    expect(slotState(slot('a', 600), '2026-05-11', ctx)).toBe('beyond');
  });
  it('are never free while the taken slots are unknown (loading or failed)', () => {
    expect(slotState(slot('a', 600), '2026-03-12', { ...ctx, taken: null })).toBe('unknown');
    // What is known without them still shows.
    expect(slotState(slot('a', 9 * 60), '2026-03-11', { ...ctx, taken: null })).toBe('past');
    expect(slotState(slot('a', 600), '2026-03-12', { ...ctx, taken: null, closedDay: true })).toBe(
      'closed',
    );
  });
});

describe('seatsLeft', () => {
  it('is the capacity less the seats taken on that date', () => {
    const seats = seatsTakenMap([
      { booking_date: '2026-03-12', slot_id: 'a', taken: 2 },
      { booking_date: '2026-03-13', slot_id: 'a', taken: 5 },
    ]);
    expect(seatsLeft(seats, '2026-03-12', 'a', 3)).toBe(1);
    expect(seatsLeft(seats, '2026-03-12', 'b', 3)).toBe(3);
    expect(seatsLeft(seats, '2026-03-13', 'a', 3)).toBe(0);
  });
});

describe('sortSlots', () => {
  it('orders by start time', () => {
    expect(sortSlots([slot('x', 600), slot('y', 480)]).map((s) => s.id)).toEqual(['y', 'x']);
  });
});
