/**
 * A counter's call, claimed: Call next's choice (the fair order, decision 138, and the
 * counter's route, decision 139) and a call out of order (a chosen number with a reason, on
 * the record). Both run inside the counter's act, under its lock.
 */
import type { CallReason } from '@qless/contract';
import { sql } from 'kysely';
import { todayOf } from '../../core/local-time.js';
import { manyRows } from '../../db/many-rows.js';
import type { Db, VisitRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { counterRoute, standingCounters } from './counter-orders.js';
import { servicesOf } from './counters.repository.js';
import type { QueueServiceDeps } from './queue-deps.js';
import { callKindOf, counterFairness, FAIR_COLUMNS, isPriority } from './queue-fairness.js';
import { routedNext } from './queue-routing.js';
import { notActionable } from './queue-settle.js';
import { claimVisit, lockQueue } from './visits.repository.js';

export interface CallContext {
  organizationId: string;
  counterId: string;
  by: string;
  now: Date;
  message: { counterName: string; organization: string };
}

/**
 * The head of the counter's order (its own line, then the longest line it helps), claimed;
 * null when nobody waits that it may call.
 */
export async function claimNext(
  trx: Db,
  turns: QueueServiceDeps['turns'],
  call: CallContext,
): Promise<VisitRow | null> {
  const { organizationId, counterId, now } = call;
  // Only what the choice needs (the full day, with its service-time history, is read
  // once after the change): the grace window, the counter's services, today's waiting.
  // The first two are read before the queue lock (a counter's services change under its
  // own lock, which this act holds); the line, under it.
  const org = await trx
    .selectFrom('organizations')
    .select(['time_zone', 'queue_grace_early_minutes', 'queue_grace_late_minutes', ...FAIR_COLUMNS])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const grace = {
    earlyMinutes: org.queue_grace_early_minutes,
    lateMinutes: org.queue_grace_late_minutes,
  };
  const links = await trx
    .selectFrom('counter_services')
    .select(['service_id', 'helps'])
    .where('counter_id', '=', counterId)
    .execute();
  const route = counterRoute({ id: counterId, ...servicesOf(links) });
  const services = links.map((l) => l.service_id);
  const { rules, fairness } = await counterFairness(trx, org, { organizationId, counterId }, now);
  // Held from here to commit: the line read, the head claimed, its SMS queued. The change
  // notification rides with the lock (delivered at commit).
  await lockQueue(trx, organizationId, { notify: true });
  // Only the fields the rule reads, instants as epoch milliseconds (a line of 2,000 is read
  // on every call, and parsing 8,000 timestamps was most of its cost), read the cheapest way
  // for the engine (db/many-rows.ts); the claim returns the chosen visit's whole row.
  // date_part is float8; extract() is numeric, three times as slow on PGlite.
  const ms = <T extends number | null>(column: string) =>
    sql<T>`date_part('epoch', ${sql.ref(column)}) * 1000`;
  const rows = await manyRows(
    trx,
    trx
      .selectFrom('visits')
      .select([
        'id',
        'service_id',
        'ahead',
        'phone',
        'priority_category',
        'for_counter_id',
        ms<number | null>('slot_start').as('slot_start'),
        ms<number>('arrived_at').as('arrived_at'),
        ms<number>('queued_at').as('queued_at'),
        ms<number | null>('place_at').as('place_at'),
      ])
      .where('organization_id', '=', organizationId)
      .where('visit_date', '=', todayOf(org, now))
      .where('state', '=', 'waiting')
      .where((eb) =>
        services.length > 0
          ? eb.or([eb('service_id', 'in', services), eb('for_counter_id', '=', counterId)])
          : eb('for_counter_id', '=', counterId),
      ),
    [],
  );
  const at = (v: number | null) => (v === null ? null : new Date(v));
  const candidates = rows.map((v) => ({
    id: v.id,
    serviceId: v.service_id,
    slotStart: at(v.slot_start),
    arrivedAt: new Date(v.arrived_at),
    queuedAt: new Date(v.queued_at),
    placeAt: at(v.place_at),
    ahead: v.ahead,
    priority: isPriority(v.priority_category, rules),
    forCounterId: v.for_counter_id,
    phone: v.phone,
  }));
  // Whether a counter named by a transfer still stands, read only when one is named.
  const named = candidates.some((c) => c.forCounterId !== null && c.forCounterId !== counterId);
  const standing = named
    ? standingCounters(
        await trx
          .selectFrom('counters')
          .select(['id', 'state'])
          .where('organization_id', '=', organizationId)
          .where('retired_at', 'is', null)
          .execute(),
      )
    : new Set([counterId]);
  // The queue lock makes the first claim win; the loop only guards a visit moved by a
  // writer that did not take it (none should).
  for (;;) {
    const next = routedNext(candidates, route, standing, now, grace, fairness);
    if (!next) return null;
    const callKind = callKindOf(next, now, grace);
    const claim = { visitId: next.id, counterId, byUser: call.by, notified: next.phone !== null };
    const claimed = await claimVisit(trx, { ...claim, callKind }, now);
    if (claimed) {
      await turns.called(trx, claimed, call.message.counterName, call.message.organization, now);
      return claimed;
    }
    candidates.splice(candidates.indexOf(next), 1);
  }
}

/**
 * A call out of order (decision 139): this waiting visitor of the branch's day, called now by
 * this counter with a reason from the short list. Outside the ratio (its call counts as
 * neither kind); the reason is kept on the visit and on its 'called' event, with the clerk.
 */
export async function claimChosen(
  trx: Db,
  turns: QueueServiceDeps['turns'],
  call: CallContext,
  visitId: string,
  reason: CallReason,
): Promise<VisitRow> {
  const { organizationId, counterId, now } = call;
  await lockQueue(trx, organizationId, { notify: true });
  const visit = await trx
    .selectFrom('visits as v')
    .innerJoin('organizations as o', 'o.id', 'v.organization_id')
    .select(['v.id', 'v.state', 'v.visit_date', 'v.phone', 'o.time_zone'])
    .where('v.id', '=', visitId)
    .where('v.organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!visit) throw new AppError(404, 'VISIT_NOT_FOUND', 'No visit of this branch has this id.');
  if (visit.state !== 'waiting' || visit.visit_date !== todayOf(visit, now)) {
    throw notActionable('This visitor is not waiting in line today: refresh the list.');
  }
  const claimed = await claimVisit(
    trx,
    { visitId, counterId, byUser: call.by, notified: visit.phone !== null, reason },
    now,
  );
  if (!claimed) throw notActionable('This visitor moved meanwhile: refresh the list.');
  await turns.called(trx, claimed, call.message.counterName, call.message.organization, now);
  return claimed;
}
