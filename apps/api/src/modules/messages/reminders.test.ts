import { describe, expect, it } from 'vitest';
import { dueReminder, reminderTimes } from './reminders.js';

const at = (iso: string) => new Date(iso);

describe('reminder rules', () => {
  // Thursday 5 March 2026, 09:30 in Douala (UTC+1) = 08:30 UTC.
  const times = reminderTimes('2026-03-05', 9 * 60 + 30, 'Africa/Douala');
  const confirmedEarly = at('2026-03-01T10:00:00Z');

  it('puts the day-before reminder at 18:00 on the organization’s clock the day before, the other 2 h before', () => {
    expect(times.start.toISOString()).toBe('2026-03-05T08:30:00.000Z');
    expect(times.dayBefore.toISOString()).toBe('2026-03-04T17:00:00.000Z');
    expect(times.twoHours.toISOString()).toBe('2026-03-05T06:30:00.000Z');
    // Another zone: Kiritimati is UTC+14, so its 18:00 the day before is 04:00 UTC.
    const kiri = reminderTimes('2026-03-05', 9 * 60 + 30, 'Pacific/Kiritimati');
    expect(kiri.dayBefore.toISOString()).toBe('2026-03-04T04:00:00.000Z');
    expect(kiri.start.toISOString()).toBe('2026-03-04T19:30:00.000Z');
  });

  it('is due from each instant on, the day-before one only until the 2-hour one is', () => {
    expect(dueReminder(times, at('2026-03-04T16:59:59Z'), confirmedEarly)).toBeNull();
    expect(dueReminder(times, at('2026-03-04T17:00:00Z'), confirmedEarly)).toBe(
      'reminder_day_before',
    );
    expect(dueReminder(times, at('2026-03-05T06:29:59Z'), confirmedEarly)).toBe(
      'reminder_day_before',
    );
    expect(dueReminder(times, at('2026-03-05T06:30:00Z'), confirmedEarly)).toBe('reminder_2h');
    expect(dueReminder(times, at('2026-03-05T08:29:59Z'), confirmedEarly)).toBe('reminder_2h');
    expect(dueReminder(times, at('2026-03-05T08:30:00Z'), confirmedEarly)).toBeNull();
  });

  it('never sends a reminder whose time had passed when the booking took its time', () => {
    const confirmedEvening = at('2026-03-04T19:00:00Z');
    expect(dueReminder(times, at('2026-03-04T19:00:01Z'), confirmedEvening)).toBeNull();
    expect(dueReminder(times, at('2026-03-05T06:30:00Z'), confirmedEvening)).toBe('reminder_2h');
    const confirmedLate = at('2026-03-05T07:00:00Z');
    expect(dueReminder(times, at('2026-03-05T07:00:01Z'), confirmedLate)).toBeNull();
    // Confirmed at the very instant it falls due: still told.
    expect(dueReminder(times, times.dayBefore, times.dayBefore)).toBe('reminder_day_before');
  });
});
