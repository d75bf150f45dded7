import type { Counter, QueueTodayResponse, QueueVisit, WaitEstimate } from '@qless/contract';

/** The waiting visits, in the calling order the server gave (never re-sorted here). */
export function waitingLine(visits: readonly QueueVisit[]): QueueVisit[] {
  return visits.filter((v) => v.state === 'waiting');
}

/** The counters staff can pick: the server lists only the active ones. */
export function counterById(
  today: Pick<QueueTodayResponse, 'counters'>,
  counterId: string | null,
): Counter | null {
  return today.counters.find((c) => c.counter_id === counterId) ?? null;
}

/** The visit a counter holds (called or serving), if any. */
export function heldVisit(
  today: Pick<QueueTodayResponse, 'visits'>,
  counter: Counter | null,
): QueueVisit | null {
  if (!counter) return null;
  const byId = counter.current_visit_id
    ? today.visits.find((v) => v.visit_id === counter.current_visit_id)
    : undefined;
  if (byId && (byId.state === 'called' || byId.state === 'serving')) return byId;
  // The counter's own link may lag the visit's (two reads of one state): the visit says too.
  return (
    today.visits.find(
      (v) => v.counter_id === counter.counter_id && (v.state === 'called' || v.state === 'serving'),
    ) ?? null
  );
}

/** How many of the waiting visits this counter may call (those of the services it serves). */
export function waitingFor(line: readonly QueueVisit[], counter: Counter | null): number {
  return counterLine(line, counter).mine.length;
}

/** Whether the counter may call this visit by its services (no order from the server). */
function servedBy(counter: Counter, visit: QueueVisit): boolean {
  if (visit.for_counter_id) return visit.for_counter_id === counter.counter_id;
  return counter.service_ids.includes(visit.service_id);
}

/**
 * The line as this counter sees it: first the visits it calls, in the order it calls them —
 * the server's own order for the counter (`calls_next`: its ratio, decision 138; its own line,
 * then the lines it helps, decision 139) — then the rest. Without that order (an older
 * answer), the visits of its services in the branch's order. With no counter picked, everyone
 * is "other" (each shows the place in its service's line).
 */
export function counterLine(
  line: readonly QueueVisit[],
  counter: Counter | null,
): { mine: QueueVisit[]; others: QueueVisit[] } {
  if (!counter) return { mine: [], others: [...line] };
  if (!counter.calls_next) {
    return {
      mine: line.filter((v) => servedBy(counter, v)),
      others: line.filter((v) => !servedBy(counter, v)),
    };
  }
  const rank = new Map(counter.calls_next.map((id, i) => [id, i]));
  const mine = line.filter((v) => rank.has(v.visit_id));
  mine.sort((a, b) => (rank.get(a.visit_id) ?? 0) - (rank.get(b.visit_id) ?? 0));
  return { mine, others: line.filter((v) => !rank.has(v.visit_id)) };
}

/**
 * When Call next called someone else than the one the screen showed first for this counter
 * (another counter took them meanwhile): both numbers, for a word beside "A-003 called";
 * null otherwise.
 */
export function racedFor(
  command: string,
  expected: Pick<QueueVisit, 'visit_id' | 'number'> | null | undefined,
  called: Pick<QueueVisit, 'visit_id' | 'number'> | null,
): { expected: string; number: string } | null {
  if (command !== 'call-next' || !expected || !called) return null;
  return expected.visit_id === called.visit_id
    ? null
    : { expected: expected.number, number: called.number };
}

/**
 * Whether No-show may be pressed for a called visitor (the server's rule, decision 118): once
 * recalled as many times as the organization set. `left`: recalls still to make.
 */
export function noShowGate(
  visit: Pick<QueueVisit, 'state' | 'recalls'>,
  maxRecalls: number,
): { allowed: boolean; left: number } {
  const left = Math.max(0, maxRecalls - visit.recalls);
  return { allowed: visit.state === 'called' && left === 0, left };
}

/**
 * Today's no-shows and visitors who left the line from their phone (during opening hours
 * only they leave): the staff can put one back in line. Latest first as the server lists.
 */
/**
 * Those a bulk clear would remove (decision 125): joined from the poster, waiting, never
 * called, within the last `withinMinutes` of `now` (all of today's when null). The server
 * decides (it also spares anyone whose call was taken back); this is the button's count.
 */
export function clearableSelfJoins(
  visits: readonly QueueVisit[],
  now: string,
  withinMinutes: number | null,
): QueueVisit[] {
  const since = withinMinutes === null ? null : Date.parse(now) - withinMinutes * 60_000;
  return visits.filter(
    (v) =>
      (v.source === 'self' || v.source === 'sms') &&
      v.state === 'waiting' &&
      v.called_at === null &&
      (since === null || Date.parse(v.arrived_at) >= since),
  );
}

/**
 * Today's no-shows: the staff can put one back in line. Latest first as the server lists.
 * (Visits that left are not listed: the screen cannot tell one who left from their phone,
 * which the server would put back, from the self-joins staff cleared in bulk.)
 */
export function todaysNoShows(visits: readonly QueueVisit[]): QueueVisit[] {
  return visits.filter((v) => v.state === 'no_show');
}

/** The services a held visit can be sent to: every other service of the organization. */
export function transferTargets<S extends { service_id: string }>(
  services: readonly S[],
  visit: Pick<QueueVisit, 'service_id'>,
): S[] {
  return services.filter((s) => s.service_id !== visit.service_id);
}

/** A wait as a range of minutes ("10–20"), or the lower bound alone when both are equal. */
export function minutesRange(estimate: WaitEstimate): { min: number; max: number } | null {
  const min = Math.max(0, Math.min(estimate.min_minutes, estimate.max_minutes));
  const max = Math.max(estimate.min_minutes, estimate.max_minutes);
  return { min, max };
}

/** The wall-clock time ("09:30") of an instant in the organization's zone. */
export function clockTime(iso: string, timeZone: string, intlLocale: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return new Intl.DateTimeFormat(intlLocale, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(at);
}

/** The counter's services by name, in the organization's order. */
export function servedNames<S extends { service_id: string }>(
  services: readonly S[],
  counter: Counter,
  name: (service: S) => string,
): string[] {
  const served = new Set(counter.service_ids);
  return services.filter((s) => served.has(s.service_id)).map(name);
}

/** A date and time as people read it ("26 nov. 2026, 09:30"), in the device's zone. */
export function formatInstant(iso: string, intlLocale: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return new Intl.DateTimeFormat(intlLocale, { dateStyle: 'medium', timeStyle: 'short' }).format(
    at,
  );
}
