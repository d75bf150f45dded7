import { addDays, weekStart } from '@qless/contract/core';

const WEEK_LENGTH_DAYS = 7;

export interface WeekDay {
  /** yyyy-MM-dd */
  date: string;
  isToday: boolean;
}

/**
 * The Monday of the week holding `date`: a week starts on Monday in Cameroon, in French and
 * in English (the spec's Sunday-first week read wrong to the French).
 */
export function mondayOf(date: string): string {
  // The Sunday-first week of the day before starts the day before this week's Monday.
  return addDays(weekStart(addDays(date, -1)), 1);
}

/** The 7 days (Monday first) of the week `offset` weeks from the one holding `today`. */
export function buildWeek(today: string, offset: number): WeekDay[] {
  const monday = addDays(mondayOf(today), offset * WEEK_LENGTH_DAYS);
  return Array.from({ length: WEEK_LENGTH_DAYS }, (_, i) => {
    const date = addDays(monday, i);
    return { date, isToday: date === today };
  });
}
