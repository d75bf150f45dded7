import type { Slot } from '@qless/contract';
import { dayOfWeek, isSlotInPast, wireToMinutes } from '@qless/contract/core';

/**
 * What a slot on a date is for the customer: bookable (`free`), or why not. `beyond`: past
 * the booking horizon; `unknown`: whether it is taken could not be learned (never shown as
 * free on a guess).
 */
export type SlotState = 'free' | 'past' | 'closed' | 'taken' | 'beyond' | 'unknown';

const takenKey = (date: string, slotId: string) => `${date}|${slotId}`;

export function takenSet(
  bookings: readonly { booking_date: string; slot_id: string }[],
): Set<string> {
  return new Set(bookings.map((b) => takenKey(b.booking_date, b.slot_id)));
}

/** Seats taken per slot and date, keyed like `takenSet`. */
export function seatsTakenMap(
  seats: readonly { booking_date: string; slot_id: string; taken: number }[],
): Map<string, number> {
  return new Map(seats.map((s) => [takenKey(s.booking_date, s.slot_id), s.taken]));
}

/** Seats still free of a slot on a date (never below 0). */
export function seatsLeft(
  seats: ReadonlyMap<string, number>,
  date: string,
  slotId: string,
  capacity: number,
): number {
  return Math.max(0, capacity - (seats.get(takenKey(date, slotId)) ?? 0));
}

/** The organization does not open on `date`: not one of its weekdays, or a closure. */
export function isClosedDay(
  date: string,
  openDays: readonly number[],
  closures: readonly string[],
): boolean {
  return !openDays.includes(dayOfWeek(date)) || closures.includes(date);
}

export interface SlotContext {
  /** Full slot-dates (takenSet); null while unknown (loading or failed). */
  taken: ReadonlySet<string> | null;
  timeZone: string;
  now: Date;
  closedDay?: boolean;
  /** The last bookable date (yyyy-MM-dd); later dates are `beyond`. */
  bookableUntil?: string;
}

/**
 * Spec 5: unavailable when it starts before now (in the organization's zone) or is booked;
 * and on a day the organization is closed, past the booking horizon, or while it is not
 * known whether it is taken.
 */
export function slotState(slot: Slot, date: string, ctx: SlotContext): SlotState {
  if (isSlotInPast(date, wireToMinutes(slot.start_time), ctx.timeZone, ctx.now)) return 'past';
  if (ctx.bookableUntil !== undefined && date > ctx.bookableUntil) return 'beyond';
  if (ctx.closedDay) return 'closed';
  if (ctx.taken === null) return 'unknown';
  if (ctx.taken.has(takenKey(date, slot.id))) return 'taken';
  return 'free';
}

/** Slots ordered by start time, invalid times left out. */
export function sortSlots(slots: readonly Slot[]): Slot[] {
  return slots
    .filter((s) => s.start_time.Valid)
    .sort((a, b) => a.start_time.Microseconds - b.start_time.Microseconds);
}
