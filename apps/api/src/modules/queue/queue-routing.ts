/**
 * Counters that route (decision 139), a pure function over the order of queue-order.ts:
 *
 * - A counter has primary services, and may help other services' lines. Its own line is the
 *   visitors of its primary services plus those sent to it by name (a transfer to a named
 *   counter); it calls from its own line first, in the fair order.
 * - Only when its own line is empty does it help: it calls the head of the longest line among
 *   the services it helps (most visitors waiting that it may call; a tie goes to the line whose
 *   head has waited longest, then to the service id, so the choice is total).
 * - A visitor sent to a named counter is called by that counter only, while it stands (open or
 *   paused); once it is closed or retired, the visitor is back in their service's line for any
 *   counter serving or helping it — nobody waits for a counter that went home.
 */
import {
  type Fairness,
  type GraceWindow,
  type OrderableVisit,
  orderQueue,
  PLAIN,
} from './queue-order.js';

export interface RoutableVisit extends OrderableVisit {
  /** A transfer to a named counter: only that counter calls it while the counter stands. */
  forCounterId?: string | null;
}

export interface CounterRoute {
  id: string;
  /** The services it serves first. */
  primary: ReadonlySet<string>;
  /** The services whose lines it helps once its own is empty. */
  helps: ReadonlySet<string>;
}

/** The counter that may call `visit` only, if one (a named counter still standing). */
function reservedFor(visit: RoutableVisit, standing: ReadonlySet<string>): string | null {
  const named = visit.forCounterId ?? null;
  return named !== null && standing.has(named) ? named : null;
}

/** The key a line's head has waited since: the longest-waiting line wins a tie. */
const waitedSince = (v: OrderableVisit) => (v.placeAt ?? v.queuedAt).getTime();

/** The counter's own line, and the lines it helps by service, longest first. */
function routeOf<V extends RoutableVisit>(
  visits: readonly V[],
  counter: CounterRoute,
  standing: ReadonlySet<string>,
): { own: V[]; helped: V[][] } {
  const own: V[] = [];
  const helped = new Map<string, V[]>();
  for (const visit of visits) {
    const reserved = reservedFor(visit, standing);
    if (reserved !== null && reserved !== counter.id) continue;
    if (reserved === counter.id || counter.primary.has(visit.serviceId)) own.push(visit);
    else if (counter.helps.has(visit.serviceId)) {
      const line = helped.get(visit.serviceId);
      if (line) line.push(visit);
      else helped.set(visit.serviceId, [visit]);
    }
  }
  return { own, helped: [...helped.values()] };
}

/** The helped lines, each in the fair order, the one to help first first. */
function helpOrder<V extends RoutableVisit>(
  lines: V[][],
  now: Date,
  grace: GraceWindow,
  fairness: Fairness,
): V[][] {
  const ordered = lines.map((line) => orderQueue(line, now, grace, fairness));
  const head = (line: V[]) => line[0] as V;
  return ordered.sort(
    (a, b) =>
      b.length - a.length ||
      waitedSince(head(a)) - waitedSince(head(b)) ||
      (head(a).serviceId < head(b).serviceId ? -1 : 1),
  );
}

/**
 * The counter's calling order: its own line in the fair order, then the lines it helps,
 * longest first (as they stand now: each call may change which is longest). Call next calls
 * the first; the counter screen lists them all. `standing`: the ids of the organization's
 * counters open or paused now.
 */
export function counterOrder<V extends RoutableVisit>(
  visits: readonly V[],
  counter: CounterRoute,
  standing: ReadonlySet<string>,
  now: Date,
  grace: GraceWindow,
  fairness: Fairness = PLAIN,
): V[] {
  const { own, helped } = routeOf(visits, counter, standing);
  return [
    ...orderQueue(own, now, grace, fairness),
    ...helpOrder(helped, now, grace, fairness).flat(),
  ];
}

/** The visit the counter calls next, or null when nobody waits that it may call. */
export function routedNext<V extends RoutableVisit>(
  visits: readonly V[],
  counter: CounterRoute,
  standing: ReadonlySet<string>,
  now: Date,
  grace: GraceWindow,
  fairness: Fairness = PLAIN,
): V | null {
  const { own, helped } = routeOf(visits, counter, standing);
  if (own.length > 0) return orderQueue(own, now, grace, fairness)[0] ?? null;
  return helpOrder(helped, now, grace, fairness)[0]?.[0] ?? null;
}
