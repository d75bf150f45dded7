import { minutesToWire, type Slot } from '@qless/contract';
import { sql } from 'kysely';
import { listedCondition } from '../../core/organizations.repository.js';
import type { Db, SlotRow } from '../../db/schema.js';
import { minutesToTime, timeToMinutes } from '../../db/time-columns.js';
import { type ExistingSlot, generateSlots, planSlots, type SlotPlan } from './slot-engine.js';

export function toSlot(row: Pick<SlotRow, 'id' | 'service_id' | 'start_time' | 'end_time'>): Slot {
  return {
    id: row.id,
    service_id: row.service_id,
    start_time: minutesToWire(timeToMinutes(row.start_time)),
    end_time: minutesToWire(timeToMinutes(row.end_time)),
  };
}

/**
 * Live slots of an active service of a listed organization in one query, with the
 * organization's week (open days and time zone); undefined when the service is unknown,
 * inactive or its organization unlisted.
 */
export async function findLiveSlotsOfListedService(
  db: Db,
  serviceId: string,
): Promise<
  | {
      organizationId: string;
      openDays: number;
      timeZone: string;
      slots: Pick<SlotRow, 'id' | 'service_id' | 'start_time' | 'end_time'>[];
    }
  | undefined
> {
  const rows = await db
    .selectFrom('services as s')
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .leftJoin('slots as sl', (join) =>
      join.onRef('sl.service_id', '=', 's.id').on('sl.retired_at', 'is', null),
    )
    .select([
      'sl.id',
      'sl.start_time',
      'sl.end_time',
      'o.id as org_id',
      'o.open_days',
      'o.time_zone',
    ])
    .where('s.id', '=', serviceId)
    .where('s.active', '=', true)
    .where(listedCondition('o'))
    .orderBy('sl.start_time')
    .execute();
  const first = rows[0];
  if (!first) return undefined;
  return {
    organizationId: first.org_id,
    openDays: first.open_days,
    timeZone: first.time_zone,
    slots: rows.flatMap((r) =>
      r.id && r.start_time && r.end_time
        ? [{ id: r.id, service_id: serviceId, start_time: r.start_time, end_time: r.end_time }]
        : [],
    ),
  };
}

/**
 * Regenerates a service's slots from its organization's hours and its duration. Call it
 * inside the transaction that changed either; it locks the service row so two concurrent
 * changes cannot interleave their plans.
 */
export async function syncServiceSlots(db: Db, serviceId: string, now: Date): Promise<SlotPlan> {
  const row = await db
    .selectFrom('services as s')
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .select(['s.id', 's.duration_minutes', 's.active', 'o.start_time', 'o.end_time'])
    .where('s.id', '=', serviceId)
    .forUpdate('s')
    .executeTakeFirstOrThrow();
  const desired = row.active
    ? generateSlots(
        timeToMinutes(row.start_time),
        timeToMinutes(row.end_time),
        row.duration_minutes,
      )
    : [];
  const stored = await db
    .selectFrom('slots as sl')
    .select([
      'sl.id',
      'sl.start_time',
      'sl.end_time',
      'sl.retired_at',
      // A slot a booking or a waitlist offer points at is retired, never deleted.
      sql<boolean>`(exists (select 1 from bookings b where b.slot_id = sl.id)
        or exists (select 1 from waitlist_entries w where w.offered_slot_id = sl.id))`.as(
        'referenced',
      ),
    ])
    .where('sl.service_id', '=', serviceId)
    .orderBy('sl.created_at')
    .execute();
  const existing: ExistingSlot[] = stored.map((s) => ({
    id: s.id,
    start: timeToMinutes(s.start_time),
    end: timeToMinutes(s.end_time),
    retired: s.retired_at !== null,
    referenced: s.referenced,
  }));
  const plan = planSlots(existing, desired);
  // Retire and delete first so revived or inserted starts never collide with a live one.
  if (plan.retire.length > 0) {
    await db.updateTable('slots').set({ retired_at: now }).where('id', 'in', plan.retire).execute();
  }
  if (plan.remove.length > 0) {
    await db.deleteFrom('slots').where('id', 'in', plan.remove).execute();
  }
  for (const u of plan.update) {
    await db
      .updateTable('slots')
      .set({ end_time: minutesToTime(u.end), ...(u.revive ? { retired_at: null } : {}) })
      .where('id', '=', u.id)
      .execute();
  }
  if (plan.insert.length > 0) {
    await db
      .insertInto('slots')
      .values(
        plan.insert.map((s) => ({
          service_id: serviceId,
          start_time: minutesToTime(s.start),
          end_time: minutesToTime(s.end),
          retired_at: null,
        })),
      )
      .execute();
  }
  return plan;
}

/** Regenerates the slots of every service of an organization (after its hours changed). */
export async function syncOrganizationSlots(
  db: Db,
  organizationId: string,
  now: Date,
): Promise<void> {
  const services = await db
    .selectFrom('services')
    .select('id')
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();
  for (const s of services) await syncServiceSlots(db, s.id, now);
}
