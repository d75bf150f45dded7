import type { Db } from '../../db/schema.js';
import { orderable, type QueueDay } from './queue-day.js';
import { fairnessOf, recentCallsByCounter } from './queue-fairness.js';
import { type CounterRoute, counterOrder } from './queue-routing.js';

/** The counters that stand (open or paused): a visitor sent to one by name waits for it. */
export function standingCounters(counters: readonly { id: string; state: string }[]): Set<string> {
  return new Set(counters.filter((c) => c.state !== 'closed').map((c) => c.id));
}

/** A counter's route: its primary services and the lines it helps (decision 139). */
export function counterRoute(counter: {
  id: string;
  service_ids: readonly string[];
  help_service_ids: readonly string[];
}): CounterRoute {
  return {
    id: counter.id,
    primary: new Set(counter.service_ids),
    helps: new Set(counter.help_service_ids),
  };
}

/**
 * Each counter's own order of the waiting visits it may call (decisions 138, 139): what its
 * Call next would call, one after another — its own line (primary services, visitors sent to
 * it by name) in the fair order counting its own recent calls, then the lines it helps,
 * longest first. The branch-wide line (places, estimates) counts the branch's calls instead,
 * so a counter's list is this.
 */
export async function countersCallNext(db: Db, day: QueueDay): Promise<Map<string, string[]>> {
  const where = { organizationId: day.organization.id, date: day.date };
  const recent = await recentCallsByCounter(db, where, day.rules);
  const standing = standingCounters(day.counters);
  const waiting = day.waiting.map((v) => ({
    ...orderable(v, day.rules),
    forCounterId: v.for_counter_id,
  }));
  const orders = new Map<string, string[]>();
  for (const counter of day.counters) {
    const fairness = fairnessOf(day.rules, recent.get(counter.id) ?? []);
    const order = counterOrder(
      waiting,
      counterRoute(counter),
      standing,
      day.now,
      day.grace,
      fairness,
    );
    orders.set(
      counter.id,
      order.map((v) => v.id),
    );
  }
  return orders;
}
