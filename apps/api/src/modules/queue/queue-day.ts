/**
 * An organization's queue now, read in one place (the staff screen, call-next, the board, a
 * customer's turn, the join page and the SMS "you are next" all start here): its settings,
 * services with their letters and typical minutes, counters, and today's open visits in
 * calling order with each waiting visit's place and estimate.
 */

import {
  type CounterState,
  formatVisitNumber,
  OPEN_VISIT_STATES,
  type QueueSettings,
  type WaitEstimate,
} from '@qless/contract';
import { sql } from 'kysely';
import { todayOf } from '../../core/local-time.js';
import { placeName } from '../../core/organizations.repository.js';
import { manyRows } from '../../db/many-rows.js';
import type { Db, VisitRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { servicesOf } from './counters.repository.js';
import {
  type ProjectedCounter,
  type Projection,
  projectWaits,
  RECENT_SERVICE_TIMES,
  typicalServiceMinutes,
  waitRange,
} from './queue-estimate.js';
import {
  FAIR_COLUMNS,
  type FairRules,
  fairnessOf,
  fairRulesOf,
  fairSettingsOf,
  isPriority,
  recentCalls,
} from './queue-fairness.js';
import {
  type Fairness,
  type GraceWindow,
  type OrderableVisit,
  orderQueue,
  positionsByService,
} from './queue-order.js';

/** A visit's timestamp columns (manyRows turns them back into Dates on PGlite). */
export const VISIT_INSTANTS = [
  'slot_start',
  'arrived_at',
  'queued_at',
  'place_at',
  'called_at',
  'serving_at',
  'ended_at',
  'near_notified_at',
  'called_notified_at',
  'whatsapp_opt_in_at',
  'personal_data_erased_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof VisitRow)[];

/** Open visits a counter holds. */
const HELD_VISIT_STATES = ['called', 'serving'] as const;

export interface QueueService {
  id: string;
  name: string;
  name_fr: string | null;
  letter: string | null;
  duration_minutes: number;
  active: boolean;
  /** Median of recent service times, or the duration until there is history. */
  typical_minutes: number;
}

export interface QueueCounter {
  id: string;
  name: string;
  state: CounterState;
  /** Its primary services. */
  service_ids: string[];
  /** The lines it helps once its own is empty (decision 139). */
  help_service_ids: string[];
  /** The visit it holds (called or serving). */
  current_visit_id: string | null;
}

export interface QueueDay {
  organization: { id: string; name: string; time_zone: string };
  date: string;
  now: Date;
  settings: QueueSettings;
  grace: GraceWindow;
  /** What the organization serves first, its ratio and ceiling (decision 138). */
  rules: FairRules;
  /** The fair order as the line is shown: the branch's recent calls counted. */
  fairness: Fairness;
  services: Map<string, QueueService>;
  counters: QueueCounter[];
  /** Waiting visits in calling order. */
  waiting: VisitRow[];
  /** Visits held by a counter (called or serving). */
  held: VisitRow[];
  /** 1-based place of each waiting visit in its service's line. */
  positions: Map<string, number>;
}

/** The visit's number as said aloud: "A-042". */
export function visitNumber(visit: Pick<VisitRow, 'letter' | 'number'>): string {
  return formatVisitNumber(visit.letter, visit.number);
}

/** A VisitRow as the ordering rule sees it (without rules: no one is a priority visitor). */
export function orderable(visit: VisitRow, rules?: FairRules) {
  return {
    priority: rules ? isPriority(visit.priority_category, rules) : false,
    id: visit.id,
    serviceId: visit.service_id,
    slotStart: visit.slot_start,
    arrivedAt: visit.arrived_at,
    queuedAt: visit.queued_at,
    placeAt: visit.place_at,
    ahead: visit.ahead,
  };
}

/** Waiting visits in calling order (the rule works on plain fields; rows keep theirs). */
export function orderVisits(
  visits: readonly VisitRow[],
  now: Date,
  grace: GraceWindow,
  rules?: FairRules,
  fairness?: Fairness,
): VisitRow[] {
  const byId = new Map(visits.map((v) => [v.id, v]));
  return orderQueue(
    visits.map((v) => orderable(v, rules)),
    now,
    grace,
    fairness,
  ).map((o) => byId.get(o.id) as VisitRow);
}

/**
 * The organization's day: settings, services with their typical times, counters, held
 * visits, and the waiting line in calling order. With `line: false` the waiting line is not
 * read (`waiting` and `positions` are empty): for the answer to a change that moved nobody
 * into or out of the line (start, recall, done, no-show), which shows only a counter and the
 * visit it held. Reading 2,000 waiting rows under the queue lock on every such change was
 * half of that lock's time in the queue bench.
 */
export async function loadQueueDay(
  db: Db,
  organizationId: string,
  now: Date,
  { line = true }: { line?: boolean } = {},
): Promise<QueueDay> {
  const org = await db
    .selectFrom('organizations')
    .select([
      'id',
      placeName('organizations').as('name'),
      'time_zone',
      'queue_grace_early_minutes',
      'queue_grace_late_minutes',
      'queue_notify_position',
      'queue_max_recalls',
      'queue_join_enabled',
      'queue_join_code',
      'queue_transfer_place',
      ...FAIR_COLUMNS,
    ])
    .where('id', '=', organizationId)
    .executeTakeFirst();
  if (!org) throw new AppError(404, 'ORGANIZATION_NOT_FOUND', 'No such organization.');
  const date = todayOf(org, now);
  const rules = fairRulesOf(org);

  const [serviceRows, recent, counterRows, links, open, calls] = await Promise.all([
    db
      .selectFrom('services')
      .select(['id', 'name', 'name_fr', 'queue_letter', 'duration_minutes', 'active'])
      .where('organization_id', '=', organizationId)
      // Creation order: the order in which services without a letter are given one.
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    // The latest finished visits per service (two weeks at most), newest first.
    db
      .selectFrom((eb) =>
        eb
          .selectFrom('visits')
          .select([
            'service_id',
            sql<number>`extract(epoch from (ended_at - serving_at)) / 60`.as('minutes'),
            sql<number>`row_number() over (partition by service_id order by ended_at desc)`.as(
              'rank',
            ),
          ])
          .where('organization_id', '=', organizationId)
          .where('state', '=', 'done')
          .where('serving_at', 'is not', null)
          .where('ended_at', '>', new Date(now.getTime() - 14 * 86_400_000))
          .as('r'),
      )
      .select(['service_id', 'minutes'])
      .where('rank', '<=', RECENT_SERVICE_TIMES)
      .execute(),
    db
      .selectFrom('counters')
      .select(['id', 'name', 'state'])
      .where('organization_id', '=', organizationId)
      .where('retired_at', 'is', null)
      .orderBy('name')
      .execute(),
    db
      .selectFrom('counter_services as cs')
      .innerJoin('counters as c', 'c.id', 'cs.counter_id')
      .select(['cs.counter_id', 'cs.service_id', 'cs.helps'])
      .where('c.organization_id', '=', organizationId)
      .where('c.retired_at', 'is', null)
      .execute(),
    // 2,000 rows of 31 columns on a busy morning: the cheapest way for the engine.
    manyRows(
      db,
      db
        .selectFrom('visits')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('visit_date', '=', date)
        .where('state', 'in', line ? OPEN_VISIT_STATES : HELD_VISIT_STATES),
      VISIT_INSTANTS,
    ),
    line ? recentCalls(db, { organizationId, date, counterId: null }, rules) : [],
  ]);

  const minutesOf = new Map<string, number[]>();
  for (const r of recent) {
    const list = minutesOf.get(r.service_id) ?? [];
    list.push(Number(r.minutes));
    minutesOf.set(r.service_id, list);
  }
  const services = new Map<string, QueueService>(
    serviceRows.map((s) => [
      s.id,
      {
        id: s.id,
        name: s.name,
        name_fr: s.name_fr,
        letter: s.queue_letter,
        duration_minutes: s.duration_minutes,
        active: s.active,
        typical_minutes: typicalServiceMinutes(minutesOf.get(s.id) ?? [], s.duration_minutes),
      },
    ]),
  );

  const held = open.filter((v) => v.state !== 'waiting');
  const holder = new Map(held.map((v) => [v.counter_id, v.id]));
  const counters: QueueCounter[] = counterRows.map((c) => ({
    id: c.id,
    name: c.name,
    state: c.state,
    ...servicesOf(links.filter((l) => l.counter_id === c.id)),
    current_visit_id: holder.get(c.id) ?? null,
  }));

  const grace = {
    earlyMinutes: org.queue_grace_early_minutes,
    lateMinutes: org.queue_grace_late_minutes,
  };
  const fairness = fairnessOf(rules, calls);
  const waiting = orderVisits(
    open.filter((v) => v.state === 'waiting'),
    now,
    grace,
    rules,
    fairness,
  );
  return {
    organization: { id: org.id, name: org.name, time_zone: org.time_zone },
    date,
    now,
    settings: {
      grace_early_minutes: org.queue_grace_early_minutes,
      grace_late_minutes: org.queue_grace_late_minutes,
      notify_position: org.queue_notify_position,
      max_recalls: org.queue_max_recalls,
      join_enabled: org.queue_join_enabled,
      join_code: org.queue_join_code,
      transfer_place: org.queue_transfer_place,
      ...fairSettingsOf(org),
    },
    grace,
    rules,
    fairness,
    services,
    counters,
    waiting,
    held,
    positions: positionsByService(waiting.map((v) => orderable(v))),
  };
}

/** Counters open (not paused, not closed) that serve a service or help its line (139). */
export function openCountersFor(day: QueueDay, serviceId: string): number {
  return day.counters.filter(
    (c) =>
      c.state === 'open' &&
      (c.service_ids.includes(serviceId) || c.help_service_ids.includes(serviceId)),
  ).length;
}

/**
 * Whether someone can serve a service now: a counter serving it, or helping its line, is open.
 * Until then a visitor gets no estimate ("Counters are not open yet") and no "you are
 * next" SMS: with nobody to call them, "1st, about 0–5 min" is a promise nobody keeps.
 */
export function servedNow(day: QueueDay, serviceId: string): boolean {
  return openCountersFor(day, serviceId) > 0;
}

/*
 * When each open counter is next free: now when it holds nobody; a visit being served holds
 * it for the rest of its service's typical minutes (at least a third of them: a visit that
 * already ran long is not about to end); a visit called and not started yet, for all of them.
 */
function projectedCounters(day: QueueDay): ProjectedCounter[] {
  const held = new Map(day.held.map((v) => [v.id, v]));
  const now = day.now.getTime();
  return day.counters
    .filter((c) => c.state === 'open')
    .map((c) => {
      const visit = c.current_visit_id ? held.get(c.current_visit_id) : undefined;
      const typical = visit ? (day.services.get(visit.service_id)?.typical_minutes ?? 0) : 0;
      let busyMinutes = 0;
      if (visit?.state === 'serving' && visit.serving_at) {
        const elapsed = (now - visit.serving_at.getTime()) / 60_000;
        busyMinutes = Math.max(typical / 3, typical - elapsed);
      } else if (visit) {
        busyMinutes = typical;
      }
      return {
        serviceIds: new Set(c.service_ids),
        helps: new Set(c.help_service_ids),
        freeAt: new Date(now + busyMinutes * 60_000),
      };
    });
}

function project(day: QueueDay, waiting: readonly OrderableVisit[]): Map<string, Projection> {
  return projectWaits({
    waiting,
    counters: projectedCounters(day),
    typicalMinutes: (serviceId) => day.services.get(serviceId)?.typical_minutes ?? 0,
    now: day.now,
    grace: day.grace,
    fairness: day.fairness,
  });
}

/** The projection of a day's waiting visits, made once per loaded day. */
const projections = new WeakMap<QueueDay, Map<string, Projection>>();

/**
 * The wait range of a waiting visit: the queue played forward from now (projectWaits) with
 * each service's typical minutes, the counters open and whom they hold (decision 020).
 * None while no counter serving its service is open (decision 120).
 */
export function estimateFor(day: QueueDay, visit: VisitRow): WaitEstimate | null {
  if (!day.positions.has(visit.id) || !day.services.has(visit.service_id)) return null;
  if (!servedNow(day, visit.service_id)) return null;
  let projection = projections.get(day);
  if (!projection) {
    projection = project(
      day,
      day.waiting.map((v) => orderable(v, day.rules)),
    );
    projections.set(day, projection);
  }
  const expected = projection.get(visit.id);
  return expected ? waitRange(expected.minutes, expected.covered) : null;
}

/** The wait range of someone who would join a service's line now (the join page). */
export function estimateForNewcomer(day: QueueDay, serviceId: string): WaitEstimate | null {
  if (!day.services.has(serviceId) || !servedNow(day, serviceId)) return null;
  const newcomer = {
    id: '\uffff', // sorts after every real id, so a same-instant tie leaves them last
    serviceId,
    slotStart: null,
    arrivedAt: day.now,
    queuedAt: day.now,
  };
  const projection = project(day, [...day.waiting.map((v) => orderable(v, day.rules)), newcomer]);
  const expected = projection.get(newcomer.id);
  return expected ? waitRange(expected.minutes, expected.covered) : null;
}
