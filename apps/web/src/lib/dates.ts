/**
 * Calendar dates (yyyy-MM-dd) shown to people. A wire date has no time zone, so it is
 * formatted as UTC noon with timeZone 'UTC': the day never shifts with the browser's zone.
 */

type DateParts = Pick<Intl.DateTimeFormatOptions, 'weekday' | 'day' | 'month' | 'year'>;

/** "Monday 16 March 2026": the booking summary, the ticket and its PDF. */
export const LONG_DATE: DateParts = {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
};
/** "Monday 16 March": a day of the week view. */
export const DAY_AND_MONTH: DateParts = { weekday: 'long', day: 'numeric', month: 'long' };
/** "March 2026": the week view's title. */
export const MONTH_AND_YEAR: DateParts = { month: 'long', year: 'numeric' };
export const SHORT_WEEKDAY: DateParts = { weekday: 'short' };
export const DAY_OF_MONTH: DateParts = { day: 'numeric' };

function atUtcNoon(date: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d, 12));
}

export function formatDate(date: string, intlLocale: string, parts: DateParts): string {
  return new Intl.DateTimeFormat(intlLocale, { ...parts, timeZone: 'UTC' }).format(atUtcNoon(date));
}
