import { addDays, dayOfWeek, formatMinutes, isSlotInPast } from '@qless/contract/core';

/** What the reschedule picker needs of a service's slots over a few days. */
export interface Availability {
  /** The service's slots: id and start (minutes since midnight in the organization's zone). */
  slots: readonly { id: string; start: number }[];
  openDays: readonly number[];
  closures: readonly string[];
  /** `${date}|${slotId}` of the slots with no seat left over the days asked. */
  full: ReadonlySet<string>;
  /** The last date a customer can book (today + the booking horizon). */
  lastDate: string;
}

export const fullKey = (date: string, slotId: string) => `${date}|${slotId}`;

export const DAYS_PER_PAGE = 7;

export interface PickerSlot {
  id: string;
  time: string;
}

export interface PickerDay {
  date: string;
  closed: boolean;
  /**
   * Open, but every slot of the day has started (today, late): over rather than full, which
   * would say others took them.
   */
  over: boolean;
  /** Free slots of the day, the booking's own left out. */
  free: PickerSlot[];
  /** The booking's own slot when it is on this day ("HH:MM"). */
  current: string | null;
}

/** The days `page` pages after `today` (page 0 starts today), never past `lastDate`. */
export function pageDates(today: string, page: number, lastDate: string): string[] {
  const first = addDays(today, page * DAYS_PER_PAGE);
  return Array.from({ length: DAYS_PER_PAGE }, (_, i) => addDays(first, i)).filter(
    (date) => date <= lastDate,
  );
}

/**
 * Each day's free slots in the organization's zone at `now`: not begun, not full, the
 * organization open, and not the booking's own slot (moving there is no move).
 */
export function pickerDays(
  dates: readonly string[],
  availability: Availability,
  own: { date: string; slotId: string },
  timeZone: string,
  now: Date,
): PickerDay[] {
  return dates.map((date) => {
    const closed =
      !availability.openDays.includes(dayOfWeek(date)) || availability.closures.includes(date);
    const free: PickerSlot[] = [];
    let current: string | null = null;
    const over =
      !closed &&
      availability.slots.length > 0 &&
      availability.slots.every((slot) => isSlotInPast(date, slot.start, timeZone, now));
    for (const slot of availability.slots) {
      const time = formatMinutes(slot.start);
      if (date === own.date && slot.id === own.slotId) {
        current = time;
        continue;
      }
      if (closed || isSlotInPast(date, slot.start, timeZone, now)) continue;
      if (availability.full.has(fullKey(date, slot.id))) continue;
      free.push({ id: slot.id, time });
    }
    return { date, closed, over, free, current };
  });
}
