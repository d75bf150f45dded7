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
