/**
 * The slot engine: pure functions, no database. Times are minutes since local midnight
 * in the organization's time zone.
 */
export interface SlotSpan {
  start: number;
  end: number;
}

/** Slot k starts at start + k·duration; the last one must end by `end`. */
export function generateSlots(start: number, end: number, duration: number): SlotSpan[] {
  if (!Number.isInteger(duration) || duration <= 0) throw new RangeError('duration must be > 0');
  const slots: SlotSpan[] = [];
  for (let s = start; s + duration <= end; s += duration)
    slots.push({ start: s, end: s + duration });
  return slots;
}

export interface ExistingSlot extends SlotSpan {
  id: string;
  retired: boolean;
  /** Any booking (in any status) points at it: it may be retired but never deleted. */
  referenced: boolean;
}

export interface SlotPlan {
  /** Live slots that stay as they are. */
  keep: string[];
  /** Slots that stay live (or come back to life) with a new end, keeping their id. */
  update: { id: string; end: number; revive: boolean }[];
  insert: SlotSpan[];
  /** Live slots no longer generated that bookings point at. */
  retire: string[];
  /** Live slots no longer generated that nothing points at. */
  remove: string[];
}

/**
 * Reconciles stored slots with the generated ones. A start that is still generated keeps
 * its id (a retired slot with that start is revived rather than duplicated), so links and
 * tickets stay valid across hour and duration changes.
 */
export function planSlots(existing: ExistingSlot[], desired: SlotSpan[]): SlotPlan {
  const plan: SlotPlan = { keep: [], update: [], insert: [], retire: [], remove: [] };
  const live = new Map<number, ExistingSlot>();
  const retired = new Map<number, ExistingSlot>();
  for (const slot of existing) {
    if (!slot.retired) live.set(slot.start, slot);
    else if (!retired.has(slot.start)) retired.set(slot.start, slot);
  }
  const wanted = new Set<number>();
  for (const span of desired) {
    wanted.add(span.start);
    const current = live.get(span.start);
    if (current) {
      if (current.end === span.end) plan.keep.push(current.id);
      else plan.update.push({ id: current.id, end: span.end, revive: false });
      continue;
    }
    const old = retired.get(span.start);
    if (old) plan.update.push({ id: old.id, end: span.end, revive: true });
    else plan.insert.push(span);
  }
  for (const slot of live.values()) {
    if (wanted.has(slot.start)) continue;
    (slot.referenced ? plan.retire : plan.remove).push(slot.id);
  }
  return plan;
}
