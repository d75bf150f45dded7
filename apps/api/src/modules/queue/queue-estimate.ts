/**
 * Honest waits: what the organization really does — a rolling median of
 * recent service times per service (the service's duration until there is history), the
 * people ahead and the counters open for that service — shown as a range, never one minute.
 * Pure; calibrated by the day simulation in queue-estimate.test.ts (decision 020).
 */
import type { WaitEstimate } from '@qless/contract';
import {
  type Fairness,
  type GraceWindow,
  hasBookedPriority,
  type OrderableVisit,
  orderQueue,
} from './queue-order.js';

const MINUTE = 60_000;

/** How many of a service's latest finished visits the median looks at. */
export const RECENT_SERVICE_TIMES = 20;
/** Fewer finished visits than this: the service's configured duration is used. */
export const MIN_HISTORY = 3;

/** The typical minutes of one visit of a service. */
export function typicalServiceMinutes(
  recentMinutes: readonly number[],
  durationMinutes: number,
): number {
  if (recentMinutes.length < MIN_HISTORY) return durationMinutes;
  const sorted = [...recentMinutes].slice(-RECENT_SERVICE_TIMES).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return Math.max(1, median);
}

/*
 * The range around an expected wait E (minutes), calibrated by the day simulation in
 * queue-estimate.test.ts (decision 020): [E × (1 − DOWN) − SLACK, E × (1 + UP) + SLACK],
 * widened outwards to 5 minutes. Real waits run longer more often than shorter (a booked
 * visitor who has not arrived yet will pass ahead; a long visit holds a counter), hence
 * UP > DOWN. With no counter open for the service, the top is wider still.
 */
export const RANGE_DOWN = 0.3;
export const RANGE_UP = 0.45;
export const RANGE_SLACK_MINUTES = 2;
const UNCOVERED_UP = 1.2;

/** The range shown for an expected wait of `expectedMinutes`. */
export function waitRange(expectedMinutes: number, covered = true): WaitEstimate {
  const expected = Math.max(0, expectedMinutes);
  const up = covered ? RANGE_UP : UNCOVERED_UP;
  const low = Math.max(0, Math.floor((expected * (1 - RANGE_DOWN) - RANGE_SLACK_MINUTES) / 5) * 5);
  const high = Math.max(low + 5, Math.ceil((expected * (1 + up) + RANGE_SLACK_MINUTES) / 5) * 5);
  return { min_minutes: low, max_minutes: high };
}

/**
 * The wait of someone with `ahead` people before them, `counters` counters open for their
 * service, each visit taking about `serviceMinutes`, when nothing more is known (no counter
 * holds anyone, no counter shared): ahead × minutes ÷ counters. No counter open: counted as
 * one (someone will open), the range widened. estimateFor (queue-day.ts) plays the real
 * queue forward instead (projectWaits).
 */
export function estimateWait(
  ahead: number,
  counters: number,
  serviceMinutes: number,
): WaitEstimate {
  const open = Math.max(1, counters);
  return waitRange((ahead * serviceMinutes) / open, counters > 0);
}

/** An open counter as the projection sees it: what it serves and when it is next free. */
export interface ProjectedCounter {
  serviceIds: ReadonlySet<string>;
  /** The lines it helps once nobody of its own services waits (decision 139). */
  helps?: ReadonlySet<string>;
  freeAt: Date;
}

export interface Projection {
  /** Minutes until the visit is expected to be called. */
  minutes: number;
  /** False when no open counter serves its service (one was assumed to open now). */
  covered: boolean;
}

/**
 * Plays the queue forward with typical service times: the counter free first calls, by the
 * real ordering rule at that moment (a booked visitor's window may open meanwhile), the next
 * visit it serves; each visit keeps it busy for its service's typical minutes. This counts a
 * counter shared between services, the person each counter holds now and booked priority,
 * which a plain "people ahead × minutes ÷ counters" cannot. A counter whose own services are
 * done helps the longest line it may help (decision 139), as Call next does. A service no open
 * counter serves or helps gets one assumed to open now (its visits are marked not covered).
 */
export function projectWaits<V extends OrderableVisit>(input: {
  waiting: readonly V[];
  counters: readonly ProjectedCounter[];
  typicalMinutes: (serviceId: string) => number;
  now: Date;
  grace: GraceWindow;
  /** The fair order (decision 138) from the branch's recent calls; the order of 020 without. */
  fairness?: Fairness;
}): Map<string, Projection> {
  const { now, grace, fairness } = input;
  const none: ReadonlySet<string> = new Set();
  const pool = input.counters.map((c) => ({
    serviceIds: c.serviceIds,
    helps: c.helps ?? none,
    freeAt: Math.max(now.getTime(), c.freeAt.getTime()),
  }));
  const uncovered = new Set<string>();
  for (const v of input.waiting) {
    const reached = pool.some((c) => c.serviceIds.has(v.serviceId) || c.helps.has(v.serviceId));
    if (!reached) uncovered.add(v.serviceId);
  }
  for (const serviceId of uncovered) {
    pool.push({ serviceIds: new Set([serviceId]), helps: none, freeAt: now.getTime() });
  }
  const result = new Map<string, Projection>();
  // The order only changes when a booked visitor's priority window opens (slot start − early
  // grace) of someone who would have priority: the rule sorts again at those moments only,
  // not at every call (2,000 waiting with 200 such windows ahead: about 0.3 s on this
  // machine; a branch's few dozen: well under a millisecond).
  const someday = new Date(8.64e15);
  const opens = input.waiting
    .filter((v) => v.slotStart !== null && hasBookedPriority(v, someday, grace))
    .map((v) => ({ id: v.id, at: (v.slotStart as Date).getTime() - grace.earlyMinutes * MINUTE }))
    .sort((a, b) => a.at - b.at);
  const taken = new Set<string>();
  let order = orderQueue(input.waiting, now, grace, fairness);
  // Everything before `head` is taken: the search for a counter's next starts there, so a
  // long line costs about one pass, not one pass per call (2,000 waiting: ~10× faster).
  let head = 0;
  const validUntil = (t: number) =>
    opens.find((open) => open.at > t && !taken.has(open.id))?.at ?? Number.POSITIVE_INFINITY;
  let until = validUntil(now.getTime());
  while (taken.size < input.waiting.length && pool.length > 0) {
    // The counter free first; ties to the earlier counter, so the play is deterministic.
    let index = 0;
    for (let i = 1; i < pool.length; i++) {
      if (
        (pool[i] as (typeof pool)[number]).freeAt < (pool[index] as (typeof pool)[number]).freeAt
      ) {
        index = i;
      }
    }
    const counter = pool[index] as (typeof pool)[number];
    if (counter.freeAt >= until) {
      order = orderQueue(
        order.filter((v) => !taken.has(v.id)),
        new Date(counter.freeAt),
        grace,
        fairness,
      );
      until = validUntil(counter.freeAt);
      head = 0;
    }
    while (head < order.length && taken.has((order[head] as V).id)) head += 1;
    let next: V | undefined;
    for (let i = head; i < order.length; i++) {
      const v = order[i] as V;
      if (!taken.has(v.id) && counter.serviceIds.has(v.serviceId)) {
        next = v;
        break;
      }
    }
    // Its own services done: the head of the longest line it helps.
    if (!next && counter.helps.size > 0) next = helpedHead(order, head, taken, counter.helps);
    if (!next) {
      pool.splice(index, 1);
      continue;
    }
    result.set(next.id, {
      minutes: (counter.freeAt - now.getTime()) / MINUTE,
      covered: !uncovered.has(next.serviceId),
    });
    counter.freeAt += input.typicalMinutes(next.serviceId) * MINUTE;
    taken.add(next.id);
  }
  return result;
}

/**
 * The first untaken visit, in `order`, of the longest line among `helps` (most untaken
 * visits); a tie to the line whose head has waited longest, then to the service id — the
 * choice of Call next (queue-routing.ts, decision 139).
 */
function helpedHead<V extends OrderableVisit>(
  order: readonly V[],
  head: number,
  taken: ReadonlySet<string>,
  helps: ReadonlySet<string>,
): V | undefined {
  const lines = new Map<string, { size: number; first: V }>();
  for (let i = head; i < order.length; i++) {
    const v = order[i] as V;
    if (taken.has(v.id) || !helps.has(v.serviceId)) continue;
    const line = lines.get(v.serviceId);
    if (line) line.size += 1;
    else lines.set(v.serviceId, { size: 1, first: v });
  }
  const since = (v: V) => (v.placeAt ?? v.queuedAt).getTime();
  let best: { size: number; first: V } | undefined;
  for (const line of lines.values()) {
    if (
      !best ||
      line.size > best.size ||
      (line.size === best.size &&
        (since(line.first) < since(best.first) ||
          (since(line.first) === since(best.first) && line.first.serviceId < best.first.serviceId)))
    ) {
      best = line;
    }
  }
  return best?.first;
}
