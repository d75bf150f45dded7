/**
 * The queue's one ordering rule (decision 020), a pure function of the
 * waiting visits and the clock — the database only decides who gets a visit first (call-next
 * takes the organization's queue lock, orders with this, and claims the head).
 *
 * - A booked visitor who arrived no later than slot start + late grace has priority from
 *   slot start − early grace: ahead of every walk-in, booked visitors by slot start, then by
 *   arrival.
 * - Everyone else — walk-ins, a booked visitor who came later than the late grace, a booked
 *   visitor whose early window has not opened yet, a transfer — is first come, first served
 *   by the time they entered this line (`queuedAt`), or by `placeAt` when set: a transfer
 *   that keeps its place by original arrival (decision 118).
 * - A transfer sent to the front of its new line (`ahead`, the organization's choice) comes
 *   before all of them, earlier such transfers first.
 * Ties (same instant) fall back to the visit id so the order is total and stable.
 */

export interface OrderableVisit {
  id: string;
  serviceId: string;
  /** A booked visit's slot start; null for walk-ins and transfers. */
  slotStart: Date | null;
  arrivedAt: Date;
  /** When the visit entered this service's line (arrival, or the transfer). */
  queuedAt: Date;
  /** The instant that orders it among first-come visitors instead of queuedAt. */
  placeAt?: Date | null;
  /** A transfer put at the front of its new line. */
  ahead?: boolean;
}

export interface GraceWindow {
  earlyMinutes: number;
  lateMinutes: number;
}

const MINUTE = 60_000;

/** True while a booked visit holds its slot's priority (false for walk-ins). */
export function hasBookedPriority(visit: OrderableVisit, now: Date, grace: GraceWindow): boolean {
  if (!visit.slotStart) return false;
  const slot = visit.slotStart.getTime();
  const onTime = visit.arrivedAt.getTime() <= slot + grace.lateMinutes * MINUTE;
  const windowOpen = now.getTime() >= slot - grace.earlyMinutes * MINUTE;
  return onTime && windowOpen;
}

/** The waiting visits in calling order. */
export function orderQueue<V extends OrderableVisit>(
  visits: readonly V[],
  now: Date,
  grace: GraceWindow,
): V[] {
  const keyed = visits.map((visit) => {
    if (visit.ahead) return { visit, rank: -1, key: visit.queuedAt.getTime(), second: 0 };
    const priority = hasBookedPriority(visit, now, grace);
    return {
      visit,
      rank: priority ? 0 : 1,
      key: priority
        ? (visit.slotStart as Date).getTime()
        : (visit.placeAt ?? visit.queuedAt).getTime(),
      second: priority ? visit.arrivedAt.getTime() : 0,
    };
  });
  keyed.sort(
    (a, b) =>
      a.rank - b.rank ||
      a.key - b.key ||
      a.second - b.second ||
      (a.visit.id < b.visit.id ? -1 : a.visit.id > b.visit.id ? 1 : 0),
  );
  return keyed.map((k) => k.visit);
}

/** The visit a counter serving `serviceIds` calls next, or null when none waits for it. */
export function nextForCounter<V extends OrderableVisit>(
  visits: readonly V[],
  serviceIds: ReadonlySet<string>,
  now: Date,
  grace: GraceWindow,
): V | null {
  return (
    orderQueue(
      visits.filter((v) => serviceIds.has(v.serviceId)),
      now,
      grace,
    )[0] ?? null
  );
}

/** Each waiting visit's 1-based place in its own service's line. */
export function positionsByService(ordered: readonly OrderableVisit[]): Map<string, number> {
  const seen = new Map<string, number>();
  const positions = new Map<string, number>();
  for (const visit of ordered) {
    const place = (seen.get(visit.serviceId) ?? 0) + 1;
    seen.set(visit.serviceId, place);
    positions.set(visit.id, place);
  }
  return positions;
}
