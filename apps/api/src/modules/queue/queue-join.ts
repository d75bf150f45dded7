/**
 * The public join page's reading of a queue: whether it is open now, and each service with
 * its line and the estimate for someone joining now.
 */
import { dayOfWeek, type JoinInfoResponse, zonedNow } from '@qless/contract';
import { isClosureDate, isOpenOn, placeLabel } from '../../core/organizations.repository.js';
import type { Db } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import { estimateForNewcomer, type QueueDay, servedNow } from './queue-day.js';

/** Open now: a day it opens, not a closure, between its opening and closing time (its zone). */
export async function isQueueOpen(
  db: Db,
  org: { id: string; time_zone: string; open_days: number; start_time: string; end_time: string },
  now: Date,
): Promise<boolean> {
  const local = zonedNow(org.time_zone, now);
  if (!isOpenOn(org.open_days, dayOfWeek(local.date))) return false;
  if (local.minutes < timeToMinutes(org.start_time)) return false;
  if (local.minutes >= timeToMinutes(org.end_time)) return false;
  return !(await isClosureDate(db, org.id, local.date));
}

/** The join page's answer for a listed organization and its day. */
export async function joinInfoOf(
  db: Db,
  org: Parameters<typeof isQueueOpen>[1] & {
    name: string;
    branch_name: string | null;
    queue_join_enabled: boolean;
    queue_join_code: boolean;
  },
  day: QueueDay,
  now: Date,
): Promise<Omit<JoinInfoResponse, 'whatsapp'>> {
  const waiting = new Map<string, number>();
  for (const v of day.waiting) waiting.set(v.service_id, (waiting.get(v.service_id) ?? 0) + 1);
  return {
    organization: { organization_id: org.id, name: placeLabel(org.name, org.branch_name) },
    enabled: org.queue_join_enabled,
    open: await isQueueOpen(db, org, now),
    code_required: org.queue_join_code,
    services: [...day.services.values()]
      .filter((s) => s.active)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((s) => ({
        service_id: s.id,
        name: s.name,
        name_fr: s.name_fr,
        waiting: waiting.get(s.id) ?? 0,
        // Someone joining now: the line played forward with them last (decision 020).
        estimate: estimateForNewcomer(day, s.id),
        counters_open: servedNow(day, s.id),
      })),
  };
}
