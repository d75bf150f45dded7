import type { Slot } from '@qless/contract';
import { dayOfWeek, isSlotInPast, wireToMinutes } from '@qless/contract/core';

type SlotState = 'free' | 'past' | 'closed' | 'taken';

const takenKey = (date: string, slotId: string) => `${date}|${slotId}`;

export function takenSet(
  bookings: readonly { booking_date: string; slot_id: string }[],
): Set<string> {
  return new Set(bookings.map((b) => takenKey(b.booking_date, b.slot_id)));
}

/** The organization does not open on `date`: not one of its weekdays, or a closure. */
export function isClosedDay(
  date: string,
  openDays: readonly number[],
  closures: readonly string[],
): boolean {
  return !openDays.includes(dayOfWeek(date)) || closures.includes(date);
}

/**
 * Spec 5: unavailable when it starts before now (in the organization's zone) or is booked;
 * and on a day the organization is closed.
 */
export function slotState(
  slot: Slot,
  date: string,
  taken: ReadonlySet<string>,
  timeZone: string,
  now: Date,
  closedDay = false,
): SlotState {
  if (isSlotInPast(date, wireToMinutes(slot.start_time), timeZone, now)) return 'past';
  if (closedDay) return 'closed';
  if (taken.has(takenKey(date, slot.id))) return 'taken';
  return 'free';
}

/** Slots ordered by start time, invalid times left out. */
export function sortSlots(slots: readonly Slot[]): Slot[] {
  return slots
    .filter((s) => s.start_time.Valid)
    .sort((a, b) => a.start_time.Microseconds - b.start_time.Microseconds);
}
