import { slotListResponseSchema } from '@qless/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  syncOrganizationSlots,
  syncServiceSlots,
} from '../../src/modules/slots/slots.repository.js';
import { useStack } from '../support/app-fixture.js';
import { PINNED_NOW } from '../support/test-app.js';

const now = new Date(PINNED_NOW);
const minutes = (s: { start_time: { Microseconds: number } }) =>
  s.start_time.Microseconds / 60_000_000;

describe('slot regeneration', () => {
  // Its own organization and service, whose hours and slots the tests rewrite.
  const stack = useStack({ fixture: false });
  let orgId: string;
  let serviceId: string;

  beforeAll(async () => {
    const org = await stack.database.db
      .insertInto('organizations')
      .values({
        name: 'Centre Test',
        email: 'test@centre.cm',
        time_zone: 'Africa/Douala',
        location: 'Rue de la Joie, Deido',
        city: 'Douala',
        category: 'clinic',
        start_time: '08:00',
        end_time: '10:00',
        verified_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    orgId = org.id;
    const svc = await stack.database.db
      .insertInto('services')
      .values({ organization_id: orgId, name: 'Counter', duration_minutes: 30 })
      .returning('id')
      .executeTakeFirstOrThrow();
    serviceId = svc.id;
    await syncServiceSlots(stack.database.db, serviceId, now);
  });

  async function slots() {
    // Hours written directly reach the read cache by notification: heard before reading.
    await stack.app.readCache.sync();
    const res = await stack.app.inject({
      method: 'GET',
      url: `/api/v1/service/${serviceId}/slots`,
    });
    expect(res.statusCode).toBe(200);
    return slotListResponseSchema.parse(res.json()).slots;
  }

  async function setHours(start: string, end: string) {
    await stack.database.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('organizations')
        .set({ start_time: start, end_time: end })
        .where('id', '=', orgId)
        .execute();
      await syncOrganizationSlots(trx, orgId, now);
    });
  }

  it('regenerates after an hours change, retiring booked slots and keeping ids of unchanged starts', async () => {
    const initial = await slots();
    expect(initial.map(minutes)).toEqual([480, 510, 540, 570]);
    const [s0, s1, s2, s3] = initial;
    if (!s0 || !s1 || !s2 || !s3) throw new Error('expected four slots');
    // A customer holds a ticket for 09:30 (the last slot).
    const booking = await stack.database.db
      .insertInto('bookings')
      .values({
        organization_id: orgId,
        service_id: serviceId,
        slot_id: s3.id,
        booking_date: '2026-03-10',
        status: 'confirmed',
        ticket_code: 'QL-REGN-01',
        cus_name: 'Ticket Holder',
        cus_email: 'holder@example.com',
        phone_number: '+237690000001',
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    await setHours('08:00', '09:00');
    const shorter = await slots();
    expect(shorter.map(minutes)).toEqual([480, 510]);
    expect(shorter.map((s) => s.id)).toEqual([s0.id, s1.id]);
    const stored = await stack.database.db
      .selectFrom('slots')
      .select(['id', 'retired_at'])
      .where('service_id', '=', serviceId)
      .execute();
    // 09:00 had no booking: deleted. 09:30 had one: retired, still there for the ticket.
    expect(stored.find((s) => s.id === s2.id)).toBeUndefined();
    expect(stored.find((s) => s.id === s3.id)?.retired_at).not.toBeNull();
    const kept = await stack.database.db
      .selectFrom('bookings')
      .select('slot_id')
      .where('id', '=', booking.id)
      .executeTakeFirstOrThrow();
    expect(kept.slot_id).toBe(s3.id);

    await setHours('07:30', '10:00');
    const longer = await slots();
    expect(longer.map(minutes)).toEqual([450, 480, 510, 540, 570]);
    // Unchanged starts keep their ids; the retired 09:30 slot comes back with its id.
    expect(longer[1]?.id).toBe(s0.id);
    expect(longer[2]?.id).toBe(s1.id);
    expect(longer[4]?.id).toBe(s3.id);
  });

  it('regenerates after a duration change', async () => {
    await stack.database.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('services')
        .set({ duration_minutes: 45 })
        .where('id', '=', serviceId)
        .execute();
      await syncServiceSlots(trx, serviceId, now);
    });
    const after = await slots();
    expect(after.map(minutes)).toEqual([450, 495, 540]);
    expect(
      after.every((s) => s.end_time.Microseconds - s.start_time.Microseconds === 45 * 60_000_000),
    ).toBe(true);
  });

  it('refuses hours that end before they start, in the database itself', async () => {
    await expect(
      stack.database.db
        .updateTable('organizations')
        .set({ start_time: '12:00', end_time: '08:00' })
        .where('id', '=', orgId)
        .execute(),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('refuses two active bookings of one seat, in the database itself', async () => {
    const [slot] = await slots();
    if (!slot) throw new Error('expected a slot');
    const values = {
      organization_id: orgId,
      service_id: serviceId,
      slot_id: slot.id,
      booking_date: '2026-03-11',
      status: 'confirmed' as const,
      cus_name: 'A',
      cus_email: 'a@example.com',
      phone_number: '+237677000002',
    };
    await stack.database.db
      .insertInto('bookings')
      .values({ ...values, ticket_code: 'QL-SEAT-01' })
      .execute();
    await expect(
      stack.database.db
        .insertInto('bookings')
        .values({ ...values, ticket_code: 'QL-SEAT-02' })
        .execute(),
    ).rejects.toMatchObject({ code: '23505' });
    // A cancelled booking frees the seat.
    await stack.database.db
      .updateTable('bookings')
      .set({ status: 'cancelled' })
      .where('ticket_code', '=', 'QL-SEAT-01')
      .execute();
    await stack.database.db
      .insertInto('bookings')
      .values({ ...values, ticket_code: 'QL-SEAT-03' })
      .execute();
  });
});
