import type { Slot } from '@qless/contract';
import { addDays, daysBetween } from '@qless/contract/core';
import { isClosedDay, type SlotContext, slotState } from './availability';
import { buildWeek, mondayOf } from './week';

/** Days in one page of the phone's day strip (and in a week of the desktop grid). */
export const STRIP_DAYS = 7;

/**
 * The phone's day strip, page `page` (0 = the first): today first, never a past day nor
 * one after `bookableUntil`. The last page may hold fewer days.
 */
export function stripDates(today: string, bookableUntil: string, page: number): string[] {
  const first = addDays(today, page * STRIP_DAYS);
  const dates: string[] = [];
  for (let i = 0; i < STRIP_DAYS; i += 1) {
    const date = addDays(first, i);
    if (date > bookableUntil) break;
    dates.push(date);
  }
  return dates;
}

/** Which dates the week view shows: a week of the grid on a wide screen, else a strip page. */
export interface ShownView {
  wide: boolean;
  /** The grid's week, in weeks from today's. */
  offset: number;
  /** The strip's page. */
  page: number;
}

/**
 * What the week view shows first where it cannot know the screen (the server, and the
 * browser while it hydrates that markup): a phone's first strip page.
 */
export const FIRST_VIEW: ShownView = { wide: false, offset: 0, page: 0 };

/** The dates the week view shows, from the organization's today. */
export function shownDates(today: string, bookableUntil: string, view: ShownView): string[] {
  return view.wide
    ? buildWeek(today, view.offset).map((d) => d.date)
    : stripDates(today, bookableUntil, view.page);
}

/**
 * The days the taken seats are asked for: those shown, first to last. The week view asks
 * them so; a server-rendered slots page embeds the answer for {@link FIRST_VIEW}.
 */
export function takenRange(dates: readonly string[]): { start: string; end: string } | null {
  const start = dates[0];
  const end = dates.at(-1);
  return start && end ? { start, end } : null;
}

/** How many strip pages reach from today to `bookableUntil` (at least 1). */
export function stripPageCount(today: string, bookableUntil: string): number {
  const days = daysBetween(today, bookableUntil) + 1;
  return Math.max(1, Math.ceil(days / STRIP_DAYS));
}

/**
 * The desktop grid's furthest week: the one holding `bookableUntil`, as an offset in weeks
 * from the week holding `today` (weeks start on Monday).
 */
export function lastWeekOffset(today: string, bookableUntil: string): number {
  return Math.max(0, Math.floor(daysBetween(mondayOf(today), bookableUntil) / STRIP_DAYS));
}

/**
 * What a day offers: `open` (some slot free), `full` (slots still ahead, every one taken),
 * `over` (today, and every slot has started: nothing left to wait for), `closed` (not a
 * working day, a closure, or a service with no slots), `past`, `beyond` (after the
 * horizon), or `unknown` (its taken slots could not be learned yet).
 */
export type DayState = 'open' | 'full' | 'over' | 'closed' | 'past' | 'beyond' | 'unknown';

export interface DayContext extends Omit<SlotContext, 'closedDay'> {
  today: string;
  bookableUntil: string;
  openDays: readonly number[];
  closures: readonly string[];
  slots: readonly Slot[];
}

export function dayState(date: string, ctx: DayContext): DayState {
  if (date < ctx.today) return 'past';
  if (date > ctx.bookableUntil) return 'beyond';
  if (isClosedDay(date, ctx.openDays, ctx.closures)) return 'closed';
  // A service with no slots opens on no day: "full" would say others got there first.
  if (ctx.slots.length === 0) return 'closed';
  const states = ctx.slots.map((slot) => slotState(slot, date, ctx));
  if (states.includes('free')) return 'open';
  // Every slot gone by (late today): the day is over, not taken by others.
  if (states.every((s) => s === 'past')) return 'over';
  if (ctx.taken === null) return 'unknown';
  return 'full';
}

/**
 * The word under a day's tile that has nothing to book: three different words for three
 * different reasons (a day that was over once read "Full"); none for a bookable day.
 */
export function dayMark(state: DayState): DayMark | null {
  switch (state) {
    case 'full':
      return 'slots.dayFull';
    case 'over':
      return 'slots.dayOver';
    case 'closed':
      return 'slots.closedDay';
    default:
      return null;
  }
}

export type DayMark = 'slots.dayFull' | 'slots.dayOver' | 'slots.closedDay';

/** The day the strip selects on arrival: today when it has a free slot, else the first that has. */
export function firstOpenDay(
  dates: readonly string[],
  states: ReadonlyMap<string, DayState>,
): string | null {
  return dates.find((d) => states.get(d) === 'open') ?? null;
}

function atUtcNoon(date: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d, 12));
}

/**
 * The title of a week or strip page: its month ("March 2026", the spec's MMMM yyyy), or
 * both months when it spans two ("November – December 2026", "décembre 2026 – janvier 2027").
 */
export function rangeTitle(first: string, last: string, intlLocale: string): string {
  const format = new Intl.DateTimeFormat(intlLocale, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  if (first.slice(0, 7) === last.slice(0, 7)) return format.format(atUtcNoon(first));
  // ICU versions space the dash differently (Node: thin spaces, Chromium: plain ones); one
  // form for both, so the server's markup and the browser's first render agree.
  return format.formatRange(atUtcNoon(first), atUtcNoon(last)).replace(/\s*–\s*/, ' – ');
}
