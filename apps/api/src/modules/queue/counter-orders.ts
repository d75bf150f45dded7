import type { Db } from '../../db/schema.js';
import { orderable, type QueueDay } from './queue-day.js';
import { fairnessOf, recentCallsByCounter } from './queue-fairness.js';
import { orderQueue } from './queue-order.js';

/**
 * Each counter's own order of the waiting visits it serves (decision 138): what its Call next
 * would call, one after another, counting its own recent calls for the ratio. The branch-wide
 * line (places, estimates) counts the branch's calls instead, so a counter's list is this.
 */
export async function countersCallNext(db: Db, day: QueueDay): Promise<Map<string, string[]>> {
  const where = { organizationId: day.organization.id, date: day.date };
  const recent = await recentCallsByCounter(db, where, day.rules);
  const orders = new Map<string, string[]>();
  for (const counter of day.counters) {
    const services = new Set(counter.service_ids);
    const mine = day.waiting
      .filter((v) => services.has(v.service_id))
      .map((v) => orderable(v, day.rules));
    const fairness = fairnessOf(day.rules, recent.get(counter.id) ?? []);
    orders.set(
      counter.id,
      orderQueue(mine, day.now, day.grace, fairness).map((v) => v.id),
    );
  }
  return orders;
}
