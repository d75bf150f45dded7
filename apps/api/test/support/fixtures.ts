import type { Database } from '../../src/db/database.js';
import { syncServiceSlots } from '../../src/modules/slots/slots.repository.js';

export interface Fixture {
  orgId: string;
  serviceId: string;
  otherServiceId: string;
  /** Live slots of `serviceId`, earliest first (07:00, 07:15, …). */
  slotIds: string[];
  otherSlotId: string;
}

/** An organization open 07:00–18:00 with a 15-minute service (44 slots a day) and another. */
export async function createFixture(database: Database, now: Date, suffix = ''): Promise<Fixture> {
  const db = database.db;
  const org = await db
    .insertInto('organizations')
    .values({
      name: `Guichet Unique ${suffix}`,
      email: `guichet${suffix}@example.cm`,
      time_zone: 'Africa/Douala',
      location: 'Rue Joss, Bonanjo, Douala',
      city: 'Douala',
      category: 'civil-registry',
      start_time: '07:00',
      end_time: '18:00',
      // Verified and complete: listed publicly, as customers' tests need.
      verified_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const [svc, other] = await Promise.all(
    [15, 30].map((duration, i) =>
      db
        .insertInto('services')
        .values({
          organization_id: org.id,
          name: `Counter ${duration}`,
          duration_minutes: duration,
          // Created one after the other: the queue's planned letters (A, then B) follow it.
          created_at: new Date(now.getTime() + i),
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  );
  if (!svc || !other) throw new Error('fixture services');
  await syncServiceSlots(db, svc.id, now);
  await syncServiceSlots(db, other.id, now);
  const slots = await db
    .selectFrom('slots')
    .select('id')
    .where('service_id', '=', svc.id)
    .orderBy('start_time')
    .execute();
  const otherSlot = await db
    .selectFrom('slots')
    .select('id')
    .where('service_id', '=', other.id)
    .executeTakeFirstOrThrow();
  return {
    orgId: org.id,
    serviceId: svc.id,
    otherServiceId: other.id,
    slotIds: slots.map((s) => s.id),
    otherSlotId: otherSlot.id,
  };
}

let counter = 0;

/** A request body as the spec's client sends it (amount as a padded string). */
export function initiateBody(
  fixture: Fixture,
  overrides: Record<string, unknown> & { slotIndex?: number } = {},
): Record<string, unknown> {
  counter += 1;
  const { slotIndex = 0, ...rest } = overrides;
  return {
    cus_name: 'Ngono Marie',
    cus_email: 'ngono.marie@example.com',
    phone_number: '+237677123456',
    amount: ' 2 ',
    currency: 'XAF',
    description: 'Service Payment',
    reference: `ref-${Date.now()}-${counter}-${Math.random().toString(36).slice(2)}`,
    service_id: fixture.serviceId,
    slot_id: fixture.slotIds[slotIndex],
    date: '2026-03-05',
    ...rest,
  };
}
