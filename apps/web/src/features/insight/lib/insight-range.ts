import { addDays, daysBetween, INSIGHT_MAX_DAYS, isIsoDate } from '@qless/contract/core';

/** How the admin picks the days: one day, its week (Monday–Sunday), its month, or any range. */
export const RANGE_KINDS = ['day', 'week', 'month', 'custom'] as const;
export type RangeKind = (typeof RANGE_KINDS)[number];

export interface RangeChoice {
  kind: RangeKind;
  /** The day the day, week or month is taken around (yyyy-MM-dd). */
  anchor: string;
  /** Custom only. */
  from: string;
  to: string;
}

export type RangeProblem = 'invalid' | 'reversed' | 'tooLong';

/** Monday of the ISO week of `date` (the heat map's weeks start on Monday too). */
function monday(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const sunday0 = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return addDays(date, -((sunday0 + 6) % 7));
}

function monthBounds(date: string): [string, string] {
  const first = `${date.slice(0, 8)}01`;
  const [y, m] = date.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return [first, addDays(next, -1)];
}

/** The from/to the choice covers, or why it cannot be asked. */
export function rangeOf(choice: RangeChoice): { from: string; to: string } | RangeProblem {
  if (choice.kind === 'custom') {
    if (!isIsoDate(choice.from) || !isIsoDate(choice.to)) return 'invalid';
    if (choice.from > choice.to) return 'reversed';
    if (daysBetween(choice.from, choice.to) + 1 > INSIGHT_MAX_DAYS) return 'tooLong';
    return { from: choice.from, to: choice.to };
  }
  if (!isIsoDate(choice.anchor)) return 'invalid';
  if (choice.kind === 'day') return { from: choice.anchor, to: choice.anchor };
  if (choice.kind === 'week') {
    const from = monday(choice.anchor);
    return { from, to: addDays(from, 6) };
  }
  const [from, to] = monthBounds(choice.anchor);
  return { from, to };
}

/** The same kind of period before (-1) or after (+1) the chosen one. */
export function shift(choice: RangeChoice, step: -1 | 1): RangeChoice {
  if (choice.kind === 'custom') {
    const range = rangeOf(choice);
    if (typeof range === 'string') return choice;
    const days = (daysBetween(range.from, range.to) + 1) * step;
    return { ...choice, from: addDays(range.from, days), to: addDays(range.to, days) };
  }
  if (!isIsoDate(choice.anchor)) return choice;
  if (choice.kind === 'day') return { ...choice, anchor: addDays(choice.anchor, step) };
  if (choice.kind === 'week') return { ...choice, anchor: addDays(choice.anchor, 7 * step) };
  const [first, last] = monthBounds(choice.anchor);
  return { ...choice, anchor: step === 1 ? addDays(last, 1) : monthBounds(addDays(first, -1))[0] };
}
