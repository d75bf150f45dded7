import { addDays, weekStart } from '@qless/contract/core';

const WEEK_LENGTH_DAYS = 7;

export interface WeekDay {
  /** yyyy-MM-dd */
  date: string;
  isToday: boolean;
}

/** The 7 days (Sunday first) of the week `offset` weeks from the one holding `today`. */
export function buildWeek(today: string, offset: number): WeekDay[] {
  const sunday = addDays(weekStart(today), offset * WEEK_LENGTH_DAYS);
  return Array.from({ length: WEEK_LENGTH_DAYS }, (_, i) => {
    const date = addDays(sunday, i);
    return { date, isToday: date === today };
  });
}

/** A yyyy-MM-dd date as a Date at UTC noon, only for formatting with timeZone 'UTC'. */
export function dateForFormatting(date: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d, 12));
}

/** "MMMM yyyy" in the given locale, e.g. "March 2026" / "mars 2026". */
export function monthTitle(date: string, intlLocale: string): string {
  return new Intl.DateTimeFormat(intlLocale, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(dateForFormatting(date));
}

export function formatDay(
  date: string,
  intlLocale: string,
  options: Intl.DateTimeFormatOptions,
): string {
  return new Intl.DateTimeFormat(intlLocale, { ...options, timeZone: 'UTC' }).format(
    dateForFormatting(date),
  );
}
