import { sql } from 'kysely';
import { listedCondition, placeName } from '../../core/organizations.repository.js';
import type { Db } from '../../db/schema.js';
import { ACTIVE } from './bookings.repository.js';

/** What starting a booking on a slot-date needs to know, as one statement read it. */
export interface BookableRead {
  service: { id: string; capacity: number };
  organization: { id: string; name: string; time_zone: string; open_days: number };
  /** The slot the request named, of whatever service; null when there is no such slot. */
  slot: { id: string; service_id: string; start_time: string; retired_at: Date | null } | null;
  /** The organization is closed on the date (a closure). */
  closed: boolean;
  /** Active bookings of the slot-date (a lapsed hold is not one). */
  taken: number;
  /** Of the numbers asked about, those with a live hold among them. */
  holdingPhones: Set<string>;
  /** Of the payment references asked about, those a payment carries already. */
  knownReferences: Set<string>;
}

/**
 * The service (active, of a listed organization), the slot, the closure, the seats taken,
 * which of `phones` hold one of them and which of `references` are known, in one statement
 * without locks and with only the columns a payment initiation uses (measured under contention:
 * initiations waiting on one slot are answered together by this one read; the service's and organization's whole
 * rows would cost it 2–3× on PGlite). Undefined when the service is not listed.
 */
export async function readBookable(
  db: Db,
  input: {
    serviceId: string;
    slotId: string;
    date: string;
    phones?: readonly string[];
    references?: readonly string[];
  },
  now: Date,
): Promise<BookableRead | undefined> {
  const { slotId, date } = input;
  const phones = [...new Set(input.phones ?? [])];
  const references = [...new Set(input.references ?? [])];
  const none = sql<string[] | null>`null`;
  const row = await db
    .selectFrom('services as s')
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .leftJoin('slots as sl', (join) => join.on('sl.id', '=', slotId))
    .select([
      's.capacity',
      'o.id as organization_id',
      placeName('o').as('organization_name'),
      'o.time_zone',
      'o.open_days',
      'sl.id as slot_id',
      'sl.service_id as slot_service_id',
      'sl.start_time',
      'sl.retired_at',
      sql<boolean>`exists (select 1 from organization_closures c
        where c.organization_id = o.id and c.closed_on = ${date})`.as('closed'),
      sql<string | number>`t.taken`.as('taken'),
      sql<string[] | null>`t.holding`.as('holding'),
      (references.length === 0
        ? none
        : sql<string[] | null>`(select array_agg(p.reference) from payments p
            where p.reference in (${sql.join(references)}))`
      ).as('known'),
    ])
    .crossJoin(
      sql<{ taken: string | number; holding: string[] | null }>`lateral (
        select count(*) as taken,
          ${
            phones.length === 0
              ? none
              : sql`array_agg(distinct b.phone_number) filter (
                  where b.status = 'held' and b.phone_number in (${sql.join(phones)}))`
          } as holding
        from bookings b
        where b.slot_id = ${slotId} and b.booking_date = ${date} and b.status in (${ACTIVE})
          and (b.status <> 'held' or b.hold_expires_at > ${now})
      )`.as('t'),
    )
    .where('s.id', '=', input.serviceId)
    .where('s.active', '=', true)
    .where(listedCondition('o'))
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    service: { id: input.serviceId, capacity: row.capacity },
    organization: {
      id: row.organization_id,
      name: row.organization_name,
      time_zone: row.time_zone,
      open_days: row.open_days,
    },
    slot:
      row.slot_id === null || row.slot_service_id === null || row.start_time === null
        ? null
        : {
            id: row.slot_id,
            service_id: row.slot_service_id,
            start_time: row.start_time,
            retired_at: row.retired_at,
          },
    closed: Boolean(row.closed),
    taken: Number(row.taken),
    holdingPhones: new Set(row.holding ?? []),
    knownReferences: new Set(row.known ?? []),
  };
}

/** Of `references`, those a payment carries already. */
export async function findKnownReferences(
  db: Db,
  references: readonly string[],
): Promise<Set<string>> {
  if (references.length === 0) return new Set();
  const rows = await db
    .selectFrom('payments')
    .select('reference')
    .where('reference', 'in', [...new Set(references)])
    .execute();
  return new Set(rows.map((row) => row.reference));
}
