/**
 * The fair order's settings and inputs (decision 138): what the organization serves first, its
 * ratio and ageing ceiling, who counts as a priority visitor, and a counter's recent calls.
 * The order itself is the pure function in queue-order.ts.
 */
import type { PriorityCategory, QueueSettings } from '@qless/contract';
import { sql } from 'kysely';
import { todayOf } from '../../core/local-time.js';
import type { Db } from '../../db/schema.js';
import {
  type CallKind,
  type Fairness,
  type GraceWindow,
  hasBookedPriority,
  type OrderableVisit,
} from './queue-order.js';

/** The organizations columns the fair order reads. */
export const FAIR_COLUMNS = [
  'queue_priority_categories',
  'queue_premium_label',
  'queue_ratio_priority',
  'queue_ratio_others',
  'queue_ageing_ceiling_minutes',
] as const;

export interface FairColumns {
  queue_priority_categories: PriorityCategory[];
  queue_premium_label: string | null;
  queue_ratio_priority: number | null;
  queue_ratio_others: number | null;
  queue_ageing_ceiling_minutes: number | null;
}

export interface FairRules {
  categories: ReadonlySet<PriorityCategory>;
  ratio: { priority: number; others: number } | null;
  ceilingMinutes: number | null;
}

/** No category served first, no ratio, no ceiling: the order of decision 020. */
export const NO_RULES: FairRules = { categories: new Set(), ratio: null, ceilingMinutes: null };

export function fairRulesOf(org: FairColumns): FairRules {
  return {
    categories: new Set(org.queue_priority_categories),
    ratio:
      org.queue_ratio_priority !== null && org.queue_ratio_others !== null
        ? { priority: org.queue_ratio_priority, others: org.queue_ratio_others }
        : null,
    ceilingMinutes: org.queue_ageing_ceiling_minutes,
  };
}

export type FairSettings = Pick<
  QueueSettings,
  'priority_categories' | 'premium_label' | 'ratio' | 'ageing_ceiling_minutes'
>;

export function fairSettingsOf(org: FairColumns): FairSettings {
  const rules = fairRulesOf(org);
  return {
    priority_categories: [...org.queue_priority_categories],
    premium_label: org.queue_premium_label,
    ratio: rules.ratio,
    ageing_ceiling_minutes: rules.ceilingMinutes,
  };
}

/** The columns a settings request changes: only the fields it carries (older clients none). */
export function fairColumnsOf(s: Partial<FairSettings>): Partial<FairColumns> {
  return {
    ...(s.priority_categories !== undefined
      ? { queue_priority_categories: [...new Set(s.priority_categories)] }
      : {}),
    ...(s.premium_label !== undefined ? { queue_premium_label: s.premium_label } : {}),
    ...(s.ratio !== undefined
      ? {
          queue_ratio_priority: s.ratio?.priority ?? null,
          queue_ratio_others: s.ratio?.others ?? null,
        }
      : {}),
    ...(s.ageing_ceiling_minutes !== undefined
      ? { queue_ageing_ceiling_minutes: s.ageing_ceiling_minutes }
      : {}),
  };
}

/** Whether a visitor's category is one the organization serves first now. */
export function isPriority(category: PriorityCategory | null, rules: FairRules): boolean {
  return category !== null && rules.categories.has(category);
}

/**
 * The last p + o − 1 calls the ratio counts, oldest first: of one counter (Call next), or of
 * the whole branch (the line as shown, places and estimates). None without a ratio.
 */
export async function recentCalls(
  db: Db,
  where: { organizationId: string; date: string; counterId: string | null },
  rules: FairRules,
): Promise<CallKind[]> {
  const window = rules.ratio ? rules.ratio.priority + rules.ratio.others - 1 : 0;
  if (window <= 0) return [];
  // In the order the calls were made: the events' ids (two calls may share an instant).
  let query = db
    .selectFrom('visit_events as e')
    .innerJoin('visits as v', 'v.id', 'e.visit_id')
    .select('e.call_kind')
    .where('e.organization_id', '=', where.organizationId)
    .where('e.kind', '=', 'called')
    .where('e.call_kind', 'is not', null)
    .where('v.visit_date', '=', where.date);
  if (where.counterId) query = query.where('e.counter_id', '=', where.counterId);
  const rows = await query.orderBy('e.id', 'desc').limit(window).execute();
  return rows.map((r) => r.call_kind as CallKind).reverse();
}

/** The last p + o − 1 counted calls of each counter of the branch today, oldest first. */
export async function recentCallsByCounter(
  db: Db,
  where: { organizationId: string; date: string },
  rules: FairRules,
): Promise<Map<string, CallKind[]>> {
  const window = rules.ratio ? rules.ratio.priority + rules.ratio.others - 1 : 0;
  const byCounter = new Map<string, CallKind[]>();
  if (window <= 0) return byCounter;
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('visit_events as e')
        .innerJoin('visits as v', 'v.id', 'e.visit_id')
        .select([
          'e.counter_id',
          'e.id',
          'e.call_kind',
          sql<number>`row_number() over (partition by e.counter_id order by e.id desc)`.as('rank'),
        ])
        .where('e.organization_id', '=', where.organizationId)
        .where('e.kind', '=', 'called')
        .where('e.counter_id', 'is not', null)
        .where('e.call_kind', 'is not', null)
        .where('v.visit_date', '=', where.date)
        .as('r'),
    )
    .select(['counter_id', 'call_kind'])
    .where('rank', '<=', window)
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = byCounter.get(row.counter_id as string) ?? [];
    list.push(row.call_kind as CallKind);
    byCounter.set(row.counter_id as string, list);
  }
  return byCounter;
}

export function fairnessOf(rules: FairRules, recent: readonly CallKind[]): Fairness {
  return { ratio: rules.ratio, ceilingMinutes: rules.ceilingMinutes, recent };
}

/**
 * What Call next at one counter orders by: the organization's rules and the counter's own last
 * calls (only its acts add one, under its own lock, so this is read before the queue lock).
 */
export async function counterFairness(
  db: Db,
  org: FairColumns & { time_zone: string },
  where: { organizationId: string; counterId: string },
  now: Date,
): Promise<{ rules: FairRules; fairness: Fairness }> {
  const rules = fairRulesOf(org);
  const recent = await recentCalls(db, { ...where, date: todayOf(org, now) }, rules);
  return { rules, fairness: fairnessOf(rules, recent) };
}

/** How Call next counts a call: null for a booked visitor within grace or a transfer ahead. */
export function callKindOf(visit: OrderableVisit, now: Date, grace: GraceWindow): CallKind | null {
  if (visit.ahead || hasBookedPriority(visit, now, grace)) return null;
  return visit.priority ? 'priority' : 'regular';
}
