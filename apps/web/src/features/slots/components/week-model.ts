import type { Slot } from '@qless/contract';
import type { ReactNode } from 'react';
import type { SlotState } from '../lib/availability';
import type { DayState } from '../lib/calendar';

/** What a slot button shows: its state, or `current` (the booking being moved). */
export type ShownState = SlotState | 'current';

/**
 * What the two layouts (day strip, week grid) share: the slots and what each slot and day is,
 * for the dates shown. The week view builds it; the layouts only read it.
 */
export interface WeekModel {
  slots: Slot[];
  today: string;
  bookableUntil: string;
  stateOf: (slot: Slot, date: string) => ShownState;
  seatsOf: (slot: Slot, date: string) => number | null;
  dayStateOf: (date: string) => DayState;
  takenFailed: boolean;
  takenLoading: boolean;
  retryTaken: () => void;
  onSelect: (slot: Slot, date: string) => void;
  /** What a full day offers instead of its slots (the waitlist's form); null: nothing. */
  fullDay: ((date: string) => ReactNode) | null;
}
