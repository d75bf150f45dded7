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
