import type { Slot } from '@qless/contract';
import { minutesToWire } from '@qless/contract/core';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { fr } from '../../../i18n/fr';
import { takenSet } from './availability';
import {
  type DayContext,
  dayMark,
  dayState,
  FIRST_VIEW,
  firstOpenDay,
  lastWeekOffset,
  rangeTitle,
  shownDates,
  stripDates,
  stripPageCount,
  takenRange,
} from './calendar';

const slot = (id: string, minutes: number): Slot => ({
  id,
  service_id: 'svc',
  start_time: minutesToWire(minutes),
  end_time: minutesToWire(minutes + 30),
});

// Monday 30 November 2026, 09:15 in Douala (08:15 UTC); the horizon 60 days on.
const NOW = new Date('2026-11-30T08:15:00Z');
const TODAY = '2026-11-30';
const UNTIL = '2027-01-29';
/** Spaces as Intl writes them (thin or no-break) read as plain ones. */
const plain = (s: string) => s.replace(/[\u2009\u202f\u00a0]/g, ' ');

describe('the phone day strip', () => {
  it('starts with today, then the next days, never a past one', () => {
    const first = stripDates(TODAY, UNTIL, 0);
    expect(first[0]).toBe(TODAY);
    expect(first).toEqual([
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
      '2026-12-06',
    ]);
    expect(stripDates(TODAY, UNTIL, 1)[0]).toBe('2026-12-07');
  });

  it('never offers a day after the horizon, whichever page', () => {
    const pages = stripPageCount(TODAY, UNTIL);
    expect(pages).toBe(9); // 61 days: 8 full pages and 5 days
    const all = Array.from({ length: pages }, (_, p) => stripDates(TODAY, UNTIL, p)).flat();
    expect(all).toHaveLength(61);
    expect(all.at(-1)).toBe(UNTIL);
    expect(all.every((d) => d >= TODAY && d <= UNTIL)).toBe(true);
    expect(new Set(all).size).toBe(all.length);
    expect(stripDates(TODAY, UNTIL, pages)).toEqual([]);
    // A horizon of 0 days: today alone.
    expect(stripPageCount(TODAY, TODAY)).toBe(1);
    expect(stripDates(TODAY, TODAY, 0)).toEqual([TODAY]);
  });

  it('lets the desktop grid go as far as the week holding the horizon', () => {
    // Today's week starts Monday 30 Nov; 29 Jan 2027 is in the week of Monday 25 Jan: 8 on.
    expect(lastWeekOffset(TODAY, UNTIL)).toBe(8);
    expect(lastWeekOffset(TODAY, '2026-12-06')).toBe(0); // its Sunday ends the week
    expect(lastWeekOffset(TODAY, '2026-12-07')).toBe(1);
  });
});

describe('dayState', () => {
  const slots = [slot('a', 9 * 60), slot('b', 10 * 60)];
  const ctx: DayContext = {
    today: TODAY,
    bookableUntil: UNTIL,
    openDays: [1, 2, 3, 4, 5, 6], // closed on Sundays
    closures: ['2026-12-25'],
    slots,
    taken: takenSet([
      { booking_date: '2026-12-01', slot_id: 'a' },
      { booking_date: '2026-12-01', slot_id: 'b' },
      { booking_date: '2026-11-30', slot_id: 'b' },
      { booking_date: '2026-12-02', slot_id: 'a' },
    ]),
    timeZone: 'Africa/Douala',
    now: NOW,
  };

  it('is open with a free slot, full when every slot is taken or has started', () => {
    expect(dayState('2026-12-02', ctx)).toBe('open'); // b is free
    expect(dayState('2026-12-01', ctx)).toBe('full'); // both taken
    // Today: 09:00 has started (it is 09:15), 10:00 is taken.
    expect(dayState(TODAY, ctx)).toBe('full');
    expect(dayState(TODAY, { ...ctx, taken: takenSet([]) })).toBe('open');
  });

  it('marks closed days, closures, past days and days past the horizon', () => {
    expect(dayState('2026-12-06', ctx)).toBe('closed'); // a Sunday
    expect(dayState('2026-12-25', ctx)).toBe('closed');
    expect(dayState('2026-11-29', ctx)).toBe('past');
    expect(dayState('2027-01-30', ctx)).toBe('beyond');
    expect(dayState(UNTIL, ctx)).toBe('open');
  });

  it('does not guess while the taken slots are unknown', () => {
    expect(dayState('2026-12-01', { ...ctx, taken: null })).toBe('unknown');
    expect(dayState('2026-12-06', { ...ctx, taken: null })).toBe('closed');
  });

  it('a service with no slots has no open day: closed, not full', () => {
    expect(dayState('2026-12-02', { ...ctx, slots: [] })).toBe('closed');
  });

  // Seen in a trial: late in the day, today read "FULL" ("COMPLET") though nobody had taken it.
  it('today is over, not full, once every slot has started (the injected clock)', () => {
    const free = { ...ctx, taken: takenSet([]) };
    // 10:05 in Douala: 09:00 and 10:00 have started, nothing was booked.
    const late = new Date('2026-11-30T09:05:00Z');
    expect(dayState(TODAY, { ...free, now: late })).toBe('over');
    expect(dayState(TODAY, { ...ctx, now: late })).toBe('over');
    // Still over while the taken seats are unknown: nothing left to learn.
    expect(dayState(TODAY, { ...free, taken: null, now: late })).toBe('over');
    // 09:55: 10:00 is still ahead; taken, so full; free, so open.
    const before = new Date('2026-11-30T08:55:00Z');
    expect(dayState(TODAY, { ...ctx, now: before })).toBe('full');
    expect(dayState(TODAY, { ...free, now: before })).toBe('open');
    // Tomorrow, both taken, is full at any hour of today.
    expect(dayState('2026-12-01', { ...ctx, now: late })).toBe('full');
  });

  it('labels over, closed and full with three different words, in English and French', () => {
    const late = new Date('2026-11-30T09:05:00Z');
    const marks = [
      dayMark(dayState(TODAY, { ...ctx, now: late })),
      dayMark(dayState('2026-12-06', ctx)),
      dayMark(dayState('2026-12-01', ctx)),
    ];
    expect(marks).toEqual(['slots.dayOver', 'slots.closedDay', 'slots.dayFull']);
    const words = (catalog: Record<string, string>) =>
      marks.map((key) => (key ? catalog[key] : null));
    expect(words(en)).toEqual(['Over', 'Closed', 'Full']);
    expect(words(fr)).toEqual(['Terminé', 'Fermé', 'Complet']);
    expect(dayMark(dayState('2026-12-02', ctx))).toBeNull();
    expect(dayMark('unknown')).toBeNull();
  });

  it('selects today when it is open, else the first open day', () => {
    const dates = stripDates(TODAY, UNTIL, 0);
    const states = new Map(dates.map((d) => [d, dayState(d, ctx)]));
    expect(firstOpenDay(dates, states)).toBe('2026-12-02');
    const free = { ...ctx, taken: takenSet([]) };
    const all = new Map(dates.map((d) => [d, dayState(d, free)]));
    expect(firstOpenDay(dates, all)).toBe(TODAY);
    expect(firstOpenDay(['2026-12-06'], new Map([['2026-12-06', 'closed' as const]]))).toBe(null);
  });
});

describe('rangeTitle', () => {
  it('names the month of a week inside one month (MMMM yyyy)', () => {
    expect(rangeTitle('2026-03-08', '2026-03-14', 'en-CM')).toBe('March 2026');
    expect(rangeTitle('2026-03-08', '2026-03-14', 'fr-CM')).toBe('mars 2026');
  });
  it('names both months of a week that spans two', () => {
    expect(plain(rangeTitle('2026-11-29', '2026-12-05', 'en-CM'))).toBe('November – December 2026');
    expect(plain(rangeTitle('2026-11-29', '2026-12-05', 'fr-CM'))).toBe('novembre – décembre 2026');
  });
  it('and both years when it spans two', () => {
    expect(plain(rangeTitle('2026-12-27', '2027-01-02', 'fr-CM'))).toBe(
      'décembre 2026 – janvier 2027',
    );
  });
});

describe('the dates shown and the taken seats asked for them', () => {
  it('shows a strip page on a phone and a Monday-first week on a wide screen', () => {
    expect(shownDates(TODAY, UNTIL, FIRST_VIEW)).toEqual(stripDates(TODAY, UNTIL, 0));
    const week = shownDates(TODAY, UNTIL, { wide: true, offset: 1, page: 0 });
    expect([week[0], week.at(-1)]).toEqual(['2026-12-07', '2026-12-13']);
  });

  it('asks from the first day shown to the last, and nothing when none is shown', () => {
    expect(takenRange(shownDates(TODAY, TODAY, FIRST_VIEW))).toEqual({ start: TODAY, end: TODAY });
    expect(takenRange(['2026-12-01', '2026-12-02', '2026-12-07'])).toEqual({
      start: '2026-12-01',
      end: '2026-12-07',
    });
    expect(takenRange([])).toBeNull();
  });
});
