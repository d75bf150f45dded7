import { ACTIVE_BOOKING_STATUSES } from '@qless/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/schema.js';

/**
 * Slot-dates of a service that are full: as many active bookings as the service's
 * capacity. A hold counts until it expires, even before the sweeper marks it expired.
 */
export function listTakenSlots(
  db: Db,
  serviceId: string,
  start: string,
  end: string,
  now: Date,
): Promise<{ booking_date: string; slot_id: string }[]> {
  return db
    .selectFrom('bookings as b')
    .innerJoin('services as s', 's.id', 'b.service_id')
    .select(['b.booking_date', 'b.slot_id'])
    .where('b.service_id', '=', serviceId)
    .where('b.booking_date', '>=', start)
    .where('b.booking_date', '<=', end)
    .where('b.status', 'in', ACTIVE_BOOKING_STATUSES)
    .where((eb) => eb.or([eb('b.status', '<>', 'held'), eb('b.hold_expires_at', '>', now)]))
    .groupBy(['b.booking_date', 'b.slot_id', 's.capacity'])
    .having(sql<number>`count(*)`, '>=', sql<number>`s.capacity`)
    .orderBy('b.booking_date')
    .orderBy('b.slot_id')
    .execute();
}
