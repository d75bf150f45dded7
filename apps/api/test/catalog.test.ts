import {
  DEFAULT_TIME_ZONE,
  organizationListResponseSchema,
  organizationResponseSchema,
  serviceListResponseSchema,
  serviceResponseSchema,
  slotListResponseSchema,
  takenSlotListResponseSchema,
} from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { seedDemo } from '../src/demo/seed.js';
import { createTestApp, PINNED_NOW } from './support/test-app.js';
import { createTestDatabase, engines, type TestDatabase } from './support/test-db.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const MICROS_PER_MINUTE = 60_000_000;

describe.each(engines)('public catalogue API on %s', (engine) => {
  let tdb: TestDatabase;
  let database: Database;
  let app: FastifyInstance;
  let akwaId: string;
  let accountOpeningId: string;

  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    database = tdb.database;
    await seedDemo(database.db, new Date(PINNED_NOW), DEFAULT_TIME_ZONE);
    ({ app } = await createTestApp(database));
    const org = await database.db
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', 'banque-du-littoral-akwa')
      .executeTakeFirstOrThrow();
    akwaId = org.id;
    const svc = await database.db
      .selectFrom('services')
      .select('id')
      .where('organization_id', '=', akwaId)
      .where('slug', '=', 'account-opening')
      .executeTakeFirstOrThrow();
    accountOpeningId = svc.id;
  });

  afterAll(async () => {
    await app?.close();
    await tdb?.cleanup();
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  describe('GET /api/v1/organizations', () => {
    it('lists the active demo organizations in the spec shape', async () => {
      const res = await get('/api/v1/organizations');
      expect(res.statusCode).toBe(200);
      const body = organizationListResponseSchema.parse(res.json());
      expect(body.organizations.length).toBeGreaterThanOrEqual(8);
      // Accented names sort with their letter ("Énergie" among the E's), not after Z.
      const names = body.organizations.map((o) => o.name);
      const energie = names.findIndex((n) => n.startsWith('Énergie'));
      const universite = names.findIndex((n) => n.startsWith('Université'));
      expect(energie).toBeGreaterThanOrEqual(0);
      expect(energie).toBeLessThan(universite);
      const akwa = body.organizations.find((o) => o.organization_id === akwaId);
      expect(akwa).toMatchObject({
        name: 'Banque du Littoral – Agence Akwa',
        location: 'Boulevard de la Liberté, Akwa, Douala',
        image_url: '/media/logos/banque-du-littoral-akwa.svg',
        time_zone: 'Africa/Douala',
        start_time: { Microseconds: (7 * 60 + 30) * MICROS_PER_MINUTE, Valid: true },
        end_time: { Microseconds: (15 * 60 + 30) * MICROS_PER_MINUTE, Valid: true },
      });
    });

    it('hides inactive organizations, their services and slots', async () => {
      const hidden = await database.db
        .insertInto('organizations')
        .values({
          name: 'Dormant Office',
          email: 'dormant@example.cm',
          time_zone: DEFAULT_TIME_ZONE,
          start_time: '08:00',
          end_time: '12:00',
          active: false,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const list = organizationListResponseSchema.parse(
        (await get('/api/v1/organizations')).json(),
      );
      expect(list.organizations.map((o) => o.organization_id)).not.toContain(hidden.id);
      const one = await get(`/api/v1/organizations/${hidden.id}`);
      expect(one.statusCode).toBe(404);
      expect(one.json()).toMatchObject({ code: 'ORGANIZATION_NOT_FOUND' });
      expect((await get(`/api/v1/organizations/${hidden.id}/services`)).statusCode).toBe(404);
    });
  });

  describe('GET /api/v1/organizations/:orgId', () => {
    it('returns one organization', async () => {
      const res = await get(`/api/v1/organizations/${akwaId}`);
      expect(res.statusCode).toBe(200);
      expect(organizationResponseSchema.parse(res.json()).organization.organization_id).toBe(
        akwaId,
      );
    });

    it('404s an unknown id and 400s a malformed one, with codes', async () => {
      const unknown = await get(`/api/v1/organizations/${UNKNOWN_ID}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({
        code: 'ORGANIZATION_NOT_FOUND',
        message: expect.any(String),
      });
      const bad = await get('/api/v1/organizations/not-a-uuid');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'INVALID_ID' });
      const injection = await get(`/api/v1/organizations/${encodeURIComponent("1' or '1'='1")}`);
      expect(injection.statusCode).toBe(400);
    });
  });

  describe('GET /api/v1/organizations/:orgId/services', () => {
    it('lists the services of the organization', async () => {
      const res = await get(`/api/v1/organizations/${akwaId}/services`);
      expect(res.statusCode).toBe(200);
      const { services } = serviceListResponseSchema.parse(res.json());
      expect(services.length).toBeGreaterThanOrEqual(3);
      expect(services.every((s) => s.organization_id === akwaId)).toBe(true);
      expect(services.find((s) => s.service_id === accountOpeningId)).toMatchObject({
        service_name: 'Personal account opening',
        duration: 45,
        capacity: 1,
      });
    });

    it('404s and 400s', async () => {
      expect((await get(`/api/v1/organizations/${UNKNOWN_ID}/services`)).json()).toMatchObject({
        code: 'ORGANIZATION_NOT_FOUND',
      });
      expect((await get('/api/v1/organizations/123/services')).statusCode).toBe(400);
    });
  });

  describe('GET /api/v1/service/:serviceId', () => {
    it('returns the service with its organization (deep links)', async () => {
      const res = await get(`/api/v1/service/${accountOpeningId}`);
      expect(res.statusCode).toBe(200);
      const body = serviceResponseSchema.parse(res.json());
      expect(body.service.service_id).toBe(accountOpeningId);
      expect(body.organization.organization_id).toBe(akwaId);
    });

    it('404s and 400s', async () => {
      const res = await get(`/api/v1/service/${UNKNOWN_ID}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'SERVICE_NOT_FOUND' });
      expect((await get('/api/v1/service/xyz')).json()).toMatchObject({ code: 'INVALID_ID' });
    });
  });

  describe('GET /api/v1/service/:serviceId/slots', () => {
    it('generates 45-minute slots from 07:30; the last ends by 15:30', async () => {
      const res = await get(`/api/v1/service/${accountOpeningId}/slots`);
      expect(res.statusCode).toBe(200);
      const { slots } = slotListResponseSchema.parse(res.json());
      const starts = slots.map((s) => s.start_time.Microseconds / MICROS_PER_MINUTE);
      // 07:30 … 14:15: ten slots; 15:00–15:45 would pass closing time.
      expect(starts).toEqual(Array.from({ length: 10 }, (_, k) => 450 + 45 * k));
      expect(slots.at(-1)?.end_time.Microseconds).toBe(900 * MICROS_PER_MINUTE);
      expect(slots.every((s) => s.start_time.Valid && s.service_id === accountOpeningId)).toBe(
        true,
      );
    });

    it('404s and 400s', async () => {
      expect((await get(`/api/v1/service/${UNKNOWN_ID}/slots`)).statusCode).toBe(404);
      expect((await get('/api/v1/service/0/slots')).statusCode).toBe(400);
    });
  });

  describe('GET /api/v1/service/:serviceId/bookings', () => {
    const week = 'start=2026-03-01&end=2026-03-07';

    it('returns only booking_date and slot_id of taken slots, with slot ids typed like the slots', async () => {
      const res = await get(`/api/v1/service/${accountOpeningId}/bookings?${week}`);
      expect(res.statusCode).toBe(200);
      const raw = res.json() as { bookings: Record<string, unknown>[] };
      const { bookings } = takenSlotListResponseSchema.parse(raw);
      expect(bookings.length).toBeGreaterThan(0);
      for (const b of raw.bookings)
        expect(Object.keys(b).sort()).toEqual(['booking_date', 'slot_id']);
      expect(res.body).not.toMatch(/\+237|@example\.com/);
      const { slots } = slotListResponseSchema.parse(
        (await get(`/api/v1/service/${accountOpeningId}/slots`)).json(),
      );
      const slotIds = new Set(slots.map((s) => s.id));
      for (const b of bookings) {
        expect(slotIds.has(b.slot_id)).toBe(true);
        expect(typeof b.slot_id).toBe(typeof slots[0]?.id);
        expect(b.booking_date >= '2026-03-01' && b.booking_date <= '2026-03-07').toBe(true);
      }
    });

    it('counts a live hold as taken, an expired hold as free, and fills by capacity', async () => {
      const date = '2026-03-20';
      const svc = await database.db
        .insertInto('services')
        .values({ organization_id: akwaId, name: 'Pairs desk', duration_minutes: 60, capacity: 2 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { syncServiceSlots } = await import('../src/modules/slots/slots.repository.js');
      await syncServiceSlots(database.db, svc.id, new Date(PINNED_NOW));
      const [slotA, slotB] = await database.db
        .selectFrom('slots')
        .select('id')
        .where('service_id', '=', svc.id)
        .orderBy('start_time')
        .execute();
      if (!slotA || !slotB) throw new Error('expected slots');
      const base = {
        organization_id: akwaId,
        service_id: svc.id,
        booking_date: date,
        cus_name: 'Test',
        cus_email: 't@example.com',
        phone_number: '+237677000001',
      };
      const inFuture = new Date(new Date(PINNED_NOW).getTime() + 5 * 60_000);
      const inPast = new Date(new Date(PINNED_NOW).getTime() - 60_000);
      await database.db
        .insertInto('bookings')
        .values([
          { ...base, slot_id: slotA.id, seat: 1, status: 'held', hold_expires_at: inFuture },
          { ...base, slot_id: slotA.id, seat: 2, status: 'confirmed', ticket_code: 'QL-TEST-A1' },
          { ...base, slot_id: slotB.id, seat: 1, status: 'held', hold_expires_at: inFuture },
          { ...base, slot_id: slotB.id, seat: 2, status: 'held', hold_expires_at: inPast },
        ])
        .execute();
      const res = await get(`/api/v1/service/${svc.id}/bookings?start=${date}&end=${date}`);
      expect(res.json()).toEqual({ bookings: [{ booking_date: date, slot_id: slotA.id }] });
    });

    it('answers 400 with a code for bad ranges', async () => {
      const cases: [string, string][] = [
        ['start=2026-02-30&end=2026-03-07', 'INVALID_DATE'],
        ['start=04/03/2026&end=2026-03-07', 'INVALID_DATE'],
        ['start=2026-03-01', 'INVALID_DATE'],
        ['start=2026-03-08&end=2026-03-01', 'INVALID_DATE_RANGE'],
        ['start=2026-03-01&end=2026-05-02', 'DATE_RANGE_TOO_LONG'],
      ];
      for (const [query, code] of cases) {
        const res = await get(`/api/v1/service/${accountOpeningId}/bookings?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json(), query).toMatchObject({ code });
      }
      // 62 days inclusive is allowed.
      const ok = await get(
        `/api/v1/service/${accountOpeningId}/bookings?start=2026-03-01&end=2026-05-01`,
      );
      expect(ok.statusCode).toBe(200);
    });

    it('404s an unknown service', async () => {
      const res = await get(`/api/v1/service/${UNKNOWN_ID}/bookings?${week}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'SERVICE_NOT_FOUND' });
    });
  });

  describe('platform', () => {
    it('reports database reachability', async () => {
      const res = await get('/api/v1/health');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', database: { reachable: true, engine } });
    });

    it('answers unknown API routes with a JSON 404 and sets security headers', async () => {
      const res = await get('/api/v1/nope');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    });

    it('serves organization logos', async () => {
      const res = await get('/media/logos/banque-du-littoral-akwa.svg');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('image/svg+xml');
    });

    it('seeding again adds nothing', async () => {
      const before = await database.db
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const result = await seedDemo(database.db, new Date(PINNED_NOW), DEFAULT_TIME_ZONE);
      expect(result.bookingsAdded).toBe(0);
      const after = await database.db
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });
  });
});
