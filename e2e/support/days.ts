import { addDays, dayOfWeek } from '@qless/contract/core';

/**
 * The first Monday at least two days after `from` (yyyy-MM-dd): a browser file pins its
 * server's clock there, ahead of the real date, so bookings made on it never lie in the past.
 */
export function nextMonday(from: string): string {
  let day = addDays(from, 2);
  while (dayOfWeek(day) !== 1) day = addDays(day, 1);
  return day;
}

/**
 * The next weekday after today (UTC), at 10:00 in Douala (09:00 UTC): a day the demo branches
 * are open, whatever day the suite runs (QLESS_FAKE_NOW).
 */
export function nextWeekdayAtTen(): Date {
  let date = addDays(new Date().toISOString().slice(0, 10), 1);
  for (;;) {
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    if (weekday >= 1 && weekday <= 5) break;
    date = addDays(date, 1);
  }
  return new Date(`${date}T09:00:00Z`);
}
