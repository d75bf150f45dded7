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
 *
 * The first-come visitors are then ordered fairly (decision 138) when the organization serves
 * some of them first (a priority category: elderly, pregnant, disability, emergency, its own
 * premium clients), with this precedence:
 * 1. anyone first-come who has waited the organization's ageing ceiling or more, earliest
 *    first: nobody waits longer than that behind people who came later;
 * 2. the ratio, "p priority, then o others", counted over the counter's own recent calls of
 *    first-come visitors (strict: while both kinds wait, every p + o consecutive calls hold
 *    exactly p priority visitors);
 * 3. arrival, within each kind.
 * Without a ratio, priority visitors are one line with the others (the category is recorded,
 * not acted on); a ratio with no others (o = 0) serves them strictly first.
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
  /** A visitor of a priority category the organization serves first. */
  priority?: boolean;
}

/** A first-come call's kind, as the ratio counts it. */
export type CallKind = 'priority' | 'regular';

export interface Fairness {
  /** "p priority, then o others"; null: one line, whatever the category. */
  ratio: { priority: number; others: number } | null;
  /** No first-come visitor waits longer than this behind a later arrival; null: no ceiling. */
  ceilingMinutes: number | null;
  /**
   * The counter's recent calls of first-come visitors, oldest first (at least the last
   * p + o − 1 of them; booked visitors within grace and transfers sent ahead are not counted).
   */
  recent: readonly CallKind[];
}

/** One line in arrival order: no ratio, no ceiling (the order of decision 020). */
export const PLAIN: Fairness = { ratio: null, ceilingMinutes: null, recent: [] };

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

type Keyed<V> = { visit: V; rank: number; key: number; second: number };

const byKey = <V extends OrderableVisit>(a: Keyed<V>, b: Keyed<V>) =>
  a.rank - b.rank ||
  a.key - b.key ||
  a.second - b.second ||
  (a.visit.id < b.visit.id ? -1 : a.visit.id > b.visit.id ? 1 : 0);

/** Whether the ratio calls a priority visitor next, given the calls before it. */
export function priorityDue(
  ratio: { priority: number; others: number },
  recent: readonly CallKind[],
): boolean {
  if (ratio.priority <= 0) return false;
  const window = ratio.priority + ratio.others - 1;
  const last = window > 0 ? recent.slice(-window) : [];
  return last.filter((kind) => kind === 'priority').length < ratio.priority;
}

/** The waiting visits in calling order. */
export function orderQueue<V extends OrderableVisit>(
  visits: readonly V[],
  now: Date,
  grace: GraceWindow,
  fairness: Fairness = PLAIN,
): V[] {
  const keyed = visits.map((visit): Keyed<V> => {
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
  keyed.sort(byKey);
  const firstCome = keyed.filter((k) => k.rank === 1);
  const ahead = keyed.filter((k) => k.rank < 1).map((k) => k.visit);
  return [...ahead, ...fairOrder(firstCome, now, fairness)];
}

/**
 * The first-come visitors (sorted by arrival) in calling order, the calls played forward:
 * each pick is added to the recent calls the next pick counts.
 */
function fairOrder<V extends OrderableVisit>(
  sorted: readonly Keyed<V>[],
  now: Date,
  fairness: Fairness,
): V[] {
  const { ratio, ceilingMinutes } = fairness;
  if (!ratio && ceilingMinutes === null) return sorted.map((k) => k.visit);
  const queues = {
    priority: sorted.filter((k) => ratio && k.visit.priority === true),
    regular: sorted.filter((k) => !(ratio && k.visit.priority === true)),
  };
  const head = { priority: 0, regular: 0 };
  const recent = [...fairness.recent];
  const ceiling = ceilingMinutes === null ? null : now.getTime() - ceilingMinutes * MINUTE;
  const out: V[] = [];
  while (out.length < sorted.length) {
    const p = queues.priority[head.priority];
    const r = queues.regular[head.regular];
    let kind: CallKind;
    if (!p) kind = 'regular';
    else if (!r) kind = 'priority';
    else {
      // The earliest of the two heads is the earliest waiting of all (each queue is sorted).
      const earliest: CallKind = byKey(p, r) < 0 ? 'priority' : 'regular';
      const overdue = ceiling !== null && (earliest === 'priority' ? p : r).key <= ceiling;
      if (overdue) kind = earliest;
      else if (ratio) kind = priorityDue(ratio, recent) ? 'priority' : 'regular';
      else kind = earliest;
    }
    const picked = queues[kind][head[kind]] as Keyed<V>;
    head[kind] += 1;
    recent.push(kind);
    out.push(picked.visit);
  }
  return out;
}

/** The visit a counter serving `serviceIds` calls next, or null when none waits for it. */
export function nextForCounter<V extends OrderableVisit>(
  visits: readonly V[],
  serviceIds: ReadonlySet<string>,
  now: Date,
  grace: GraceWindow,
  fairness: Fairness = PLAIN,
): V | null {
  return (
    orderQueue(
      visits.filter((v) => serviceIds.has(v.serviceId)),
      now,
      grace,
      fairness,
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
