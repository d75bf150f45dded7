/**
 * What a waitlist day should become, as a pure function of what the database says now
 * (decision 023). Applied under the day's lock by waitlist-offers.ts, so two processes
 * never plan one day at once.
 */

import { QUIET_HOURS } from '../messages/messages.module.js';

export interface PlanSlot {
  id: string;
  capacity: number;
  /** When it starts (the organization's clock, as an instant). */
  startsAt: Date;
  /** Active bookings that count now (held with a live hold, confirmed, checked in). */
  taken: number;
}

export interface PlanBooking {
  id: string;
  slotId: string;
  phone: string;
  /** Confirmed or checked in (a seat paid for). */
  paid: boolean;
  /** Held, the hold still running (a payment under way). */
  liveHold: boolean;
  createdAt: Date;
}

export interface PlanEntry {
  id: string;
  phone: string;
  state: 'waiting' | 'offered';
  createdAt: Date;
  offeredSlotId: string | null;
  offeredAt: Date | null;
  offerExpiresAt: Date | null;
}

export interface PlanInput {
  now: Date;
  holdMinutes: number;
  /** False when the day can no longer be booked at all: passed, closed, service gone. */
  bookable: boolean;
  /**
   * Night where the organization is (outside OFFER_HOURS): no offer is sent, so nobody is
   * woken by an SMS, and no hold lapses while its number sleeps. A seat freed at night is
   * offered in the morning; offers out keep their hold.
   */
  quiet?: boolean;
  /** Live slots of the service, in start order. */
  slots: PlanSlot[];
  bookings: PlanBooking[];
  /** The day's waiting and offered entries, in the order they joined. */
  entries: PlanEntry[];
}

export type Ending = 'booked' | 'lapsed' | 'missed' | 'expired';

export interface Plan {
  ended: { id: string; state: Ending; bookingId: string | null }[];
  offers: { id: string; slotId: string; expiresAt: Date }[];
}

/** Offers are sent from 07:00 to 21:00, the organization's time (decision 023). */
export const OFFER_HOURS = { from: QUIET_HOURS.to, to: QUIET_HOURS.from } as const;

/** A slot starting sooner than this is not offered: nobody could pay for it in time. */
export const MIN_OFFER_LEAD_MS = 5 * 60_000;

export function planDay(input: PlanInput): Plan {
  const { now, entries } = input;
  const plan: Plan = { ended: [], offers: [] };
  const end = (entry: PlanEntry, state: Ending, bookingId: string | null = null) =>
    plan.ended.push({ id: entry.id, state, bookingId });
  if (!input.bookable) {
    for (const entry of entries) end(entry, 'expired');
    return plan;
  }
  const offerable = input.slots.filter(
    (slot) => slot.startsAt.getTime() - now.getTime() >= MIN_OFFER_LEAD_MS,
  );
  const slotIds = new Set(offerable.map((slot) => slot.id));
  // A booking paid for by the entry's number since it joined (or was offered): done.
  const paidBy = (entry: PlanEntry) => {
    const since = (entry.offeredAt ?? entry.createdAt).getTime();
    return input.bookings.find(
      (b) => b.paid && b.phone === entry.phone && b.createdAt.getTime() >= since,
    );
  };
  const offered = new Map<string, PlanEntry[]>();
  const waiting: PlanEntry[] = [];
  for (const entry of entries) {
    const paid = paidBy(entry);
    if (paid) {
      end(entry, 'booked', paid.id);
    } else if (entry.state === 'waiting') {
      waiting.push(entry);
    } else if (!entry.offeredSlotId || !slotIds.has(entry.offeredSlotId)) {
      // Its slot has begun (or is about to) or no longer exists: nothing left to offer.
      end(entry, 'expired');
    } else if ((entry.offerExpiresAt?.getTime() ?? 0) <= now.getTime()) {
      end(entry, 'lapsed');
    } else {
      const list = offered.get(entry.offeredSlotId) ?? [];
      list.push(entry);
      offered.set(entry.offeredSlotId, list);
    }
  }
  if (offerable.length === 0) {
    // Nothing of the day can be offered any more: nobody is told anything after it.
    for (const entry of waiting) end(entry, 'expired');
    return plan;
  }
  const rooms: { slot: PlanSlot; room: number }[] = [];
  for (const slot of offerable) {
    const free = Math.max(0, slot.capacity - slot.taken);
    const out = offered.get(slot.id) ?? [];
    // An offered number paying for this slot holds its own seat (counted in `taken`).
    const paying = (entry: PlanEntry) =>
      input.bookings.some((b) => b.liveHold && b.slotId === slot.id && b.phone === entry.phone);
    const open = out.filter((entry) => !paying(entry));
    // An offer is lost only to someone who paid: a stranger's hold may still fail, and then
    // the seat is the offered person's to take ("first to pay gets it").
    const paidSeats = input.bookings.filter((b) => b.paid && b.slotId === slot.id).length;
    const keepable = Math.max(0, slot.capacity - paidSeats - (out.length - open.length));
    if (open.length > keepable) {
      // Someone else paid first: the latest offers of the slot lose it, never the earlier.
      const byOffer = [...open].sort(
        (a, b) => (b.offeredAt?.getTime() ?? 0) - (a.offeredAt?.getTime() ?? 0),
      );
      for (const entry of byOffer.slice(0, open.length - keepable)) end(entry, 'missed');
    }
    rooms.push({ slot, room: Math.max(0, free - open.length) });
  }
  if (input.quiet) return plan;
  let next = 0;
  for (const { slot, room } of rooms) {
    for (let i = 0; i < room && next < waiting.length; i += 1) {
      const entry = waiting[next++] as PlanEntry;
      const holdEnd = now.getTime() + input.holdMinutes * 60_000;
      const expiresAt = new Date(Math.min(holdEnd, slot.startsAt.getTime()));
      plan.offers.push({ id: entry.id, slotId: slot.id, expiresAt });
    }
  }
  return plan;
}
