import {
  adminBookingsResponseSchema,
  closuresResponseSchema,
  organizationDataResponseSchema,
  serviceChangeResponseSchema,
  slotListResponseSchema,
  updateProfileResponseSchema,
} from '@qless/contract';
import type { InjectOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema.js';
import { useStack } from '../support/app-fixture.js';
import { signedIn } from '../support/auth-helpers.js';
import { createFixture, type Fixture, initiateBody } from '../support/fixtures.js';
import { NO_LIMITS } from '../support/payment-helpers.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const TODAY = '2026-03-04'; // Wednesday (PINNED_NOW is 09:30 in Douala)
const THURSDAY = '2026-03-05';
const FRIDAY = '2026-03-06';
const SATURDAY = '2026-03-07';
const MICROS_PER_MINUTE = 60_000_000;

type Headers = Record<string, string>;
interface Org {
  fx: Fixture;
  admin: Headers;
  staff: Headers;
}

describe('organization API', () => {
  const s = useStack({ env: NO_LIMITS, fixture: false });
  let db: Kysely<DB>;
  let operator: Headers;
  let A: Org;
  let B: Org;
  let bookingCounter = 0;

  async function createOrg(suffix: string): Promise<Org> {
    const fx = await createFixture(s.database, s.clock.now(), suffix);
    const admin = await signedIn(s.app, db, {
      email: `admin${suffix}@org.cm`,
      role: 'org_admin',
      organizationId: fx.orgId,
    });
    const staff = await signedIn(s.app, db, {
      email: `staff${suffix}@org.cm`,
      role: 'staff',
      organizationId: fx.orgId,
    });
    return { fx, admin: admin.headers, staff: staff.headers };
  }

  /** A booking of `fx`'s 15-minute service; slot k starts at 07:00 + 15k min. */
  async function book(
    fx: Fixture,
    slotIndex: number,
    date: string,
    extra: Partial<{ status: 'held' | 'confirmed' | 'cancelled' | 'expired' | 'checked_in' }> = {},
  ): Promise<string> {
    bookingCounter += 1;
    const status = extra.status ?? 'confirmed';
    const n = String(bookingCounter).padStart(4, '0');
    const slotId = fx.slotIds[slotIndex];
    if (!slotId) throw new Error(`no slot ${slotIndex}`);
    const row = await db
      .insertInto('bookings')
      .values({
        organization_id: fx.orgId,
        service_id: fx.serviceId,
        slot_id: slotId,
        booking_date: date,
        status,
        hold_expires_at: status === 'held' ? new Date(s.clock.now().getTime() + 600_000) : null,
        cus_name: `Client ${n}`,
        cus_email: `client${n}@example.com`,
        phone_number: `+23767700${n}`,
        ticket_code: status === 'held' || status === 'expired' ? null : `QL-TEST-${n}`,
        confirmed_at: status === 'held' || status === 'expired' ? null : s.clock.now(),
        checked_in_at: status === 'checked_in' ? s.clock.now() : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const attentionOf = async (bookingId: string) =>
    (
      await db
        .selectFrom('bookings')
        .select('attention_reason')
        .where('id', '=', bookingId)
        .executeTakeFirstOrThrow()
    ).attention_reason;

  const inject = (options: InjectOptions) => s.app.inject(options);
  const get = (url: string, headers: Headers = {}) => inject({ method: 'GET', url, headers });
  const send = (
    method: 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Headers,
    payload?: object,
  ) => inject({ method, url, headers, ...(payload ? { payload } : {}) });

  const profileBody = (overrides: Record<string, unknown> = {}) => ({
    name: 'Guichet Unique A',
    location: 'Rue Joss, Bonanjo, Douala',
    start_time: '07:00:00',
    end_time: '18:00:00',
    email: 'guichetA@example.cm',
    ...overrides,
  });
  const patchProfile = (headers: Headers, overrides: Record<string, unknown> = {}) =>
    send('PATCH', '/api/v1/organization/update/profile', headers, profileBody(overrides));

  beforeAll(async () => {
    db = s.database.db;
    A = await createOrg('A');
    B = await createOrg('B');
    operator = (await signedIn(s.app, db, { email: 'ops@qless.cm', role: 'operator' })).headers;
  }, 60_000);

  describe('GET /organization/data', () => {
    let org: Org;
    beforeAll(async () => {
      org = await createOrg('Data');
      // Today, out of time order; plus bookings that are not real or not today.
      await book(org.fx, 12, TODAY); // 10:00
      await book(org.fx, 4, TODAY, { status: 'checked_in' }); // 08:00
      await book(org.fx, 8, TODAY, { status: 'held' }); // not paid: not listed
      await book(org.fx, 9, TODAY, { status: 'cancelled' });
      await book(org.fx, 4, THURSDAY);
    });

    it('gives the admin the profile, every service and the stats (today earliest first)', async () => {
      const res = await get('/api/v1/organization/data', org.admin);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = organizationDataResponseSchema.parse(res.json());
      expect(body.organizationData).toMatchObject({
        organization_id: org.fx.orgId,
        name: 'Guichet Unique Data',
        email: 'guichetData@example.cm',
        city: 'Douala',
        opens_at: '07:00',
        closes_at: '18:00',
        start_time: { Microseconds: 7 * 60 * MICROS_PER_MINUTE, Valid: true },
        open_days: [0, 1, 2, 3, 4, 5, 6],
        closures: [],
        verified: true,
        missing_fields: [],
        listed: true,
        time_zone: 'Africa/Douala',
      });
      expect(body.services.map((s) => s.service_id).sort()).toEqual(
        [org.fx.serviceId, org.fx.otherServiceId].sort(),
      );
      expect(body.stats.total_services).toBe(2);
      // confirmed ×2 and checked in; the hold and the cancelled one are not bookings.
      expect(body.stats.total_bookings).toBe(3);
      expect(body.stats.today.map((b) => [b.time, b.status])).toEqual([
        ['08:00', 'checked_in'],
        ['10:00', 'confirmed'],
      ]);
      expect(body.stats.needs_attention).toBe(0);
    });

    it('gives staff their organization too; others get 401/403/404', async () => {
      const staff = await get('/api/v1/organization/data', org.staff);
      expect(staff.statusCode).toBe(200);
      expect(staff.json().organizationData.name).toBe('Guichet Unique Data');

      expect((await get('/api/v1/organization/data')).statusCode).toBe(401);
      const other = await get(`/api/v1/organization/data?organization_id=${B.fx.orgId}`, org.admin);
      expect(other.statusCode).toBe(403);
      expect(other.json().code).toBe('FORBIDDEN');
      const staffOther = await get(
        `/api/v1/organization/data?organization_id=${B.fx.orgId}`,
        org.staff,
      );
      expect(staffOther.statusCode).toBe(403);
    });

    it('lets operators name any organization, and must name one', async () => {
      const named = await get(
        `/api/v1/organization/data?organization_id=${org.fx.orgId}`,
        operator,
      );
      expect(named.statusCode).toBe(200);
      expect(named.json().organizationData.organization_id).toBe(org.fx.orgId);
      const unnamed = await get('/api/v1/organization/data', operator);
      expect(unnamed.statusCode).toBe(400);
      const unknown = await get(
        `/api/v1/organization/data?organization_id=${UNKNOWN_ID}`,
        operator,
      );
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('ORGANIZATION_NOT_FOUND');
      const bad = await get('/api/v1/organization/data?organization_id=nope', operator);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('INVALID_ID');
    });
  });

  describe('GET /organization/:id/bookings', () => {
    let org: Org;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      org = await createOrg('List');
      // Inserted out of order on purpose.
      ids.fri10 = await book(org.fx, 12, FRIDAY);
      ids.thu08 = await book(org.fx, 4, THURSDAY);
      ids.thu1030 = await book(org.fx, 14, THURSDAY, { status: 'checked_in' });
      ids.wed09 = await book(org.fx, 8, TODAY, { status: 'cancelled' });
      ids.thu09 = await book(org.fx, 8, THURSDAY);
      ids.held = await book(org.fx, 20, THURSDAY, { status: 'held' });
      ids.expired = await book(org.fx, 21, THURSDAY, { status: 'expired' });
      await db
        .updateTable('bookings')
        .set({ attention_reason: 'outside_hours' })
        .where('id', '=', ids.thu09)
        .execute();
    });
    const list = (query = '', headers?: Headers) =>
      get(`/api/v1/organization/${org.fx.orgId}/bookings${query}`, headers ?? org.admin);

    it('lists bookings that were confirmed, by date then time, with ticket, status and contact', async () => {
      const res = await list();
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = adminBookingsResponseSchema.parse(res.json());
      expect(body.total).toBe(5);
      expect(body.bookings.map((b) => b.booking_id)).toEqual([
        ids.wed09,
        ids.thu08,
        ids.thu09,
        ids.thu1030,
        ids.fri10,
      ]);
      const first = body.bookings[1];
      expect(first).toMatchObject({
        booking_date: THURSDAY,
        time: '08:00',
        status: 'confirmed',
        service_id: org.fx.serviceId,
        service_name: 'Counter 15',
        ticket_code: expect.stringMatching(/^QL-TEST-/),
        phone_number: expect.stringMatching(/^\+2376770/),
        cus_email: expect.stringMatching(/@example\.com$/),
        attention_reason: null,
      });
      expect(body.bookings[3]?.checked_in_at).toBe(s.clock.now().toISOString());
    });

    it('pages', async () => {
      const page2 = adminBookingsResponseSchema.parse((await list('?page=2&page_size=2')).json());
      expect(page2).toMatchObject({ page: 2, page_size: 2, total: 5 });
      expect(page2.bookings.map((b) => b.booking_id)).toEqual([ids.thu09, ids.thu1030]);
      const page3 = adminBookingsResponseSchema.parse((await list('?page=3&page_size=2')).json());
      expect(page3.bookings.map((b) => b.booking_id)).toEqual([ids.fri10]);
      const beyond = adminBookingsResponseSchema.parse((await list('?page=9&page_size=2')).json());
      expect(beyond.bookings).toEqual([]);
      expect(beyond.total).toBe(5);
    });

    it('filters by date range, statuses and attention', async () => {
      const thursday = adminBookingsResponseSchema.parse(
        (await list(`?from=${THURSDAY}&to=${THURSDAY}`)).json(),
      );
      expect(thursday.bookings.map((b) => b.booking_id)).toEqual([
        ids.thu08,
        ids.thu09,
        ids.thu1030,
      ]);
      const fromFriday = adminBookingsResponseSchema.parse((await list(`?from=${FRIDAY}`)).json());
      expect(fromFriday.bookings.map((b) => b.booking_id)).toEqual([ids.fri10]);
      const statuses = adminBookingsResponseSchema.parse(
        (await list('?status=checked_in,cancelled')).json(),
      );
      expect(statuses.bookings.map((b) => b.booking_id)).toEqual([ids.wed09, ids.thu1030]);
      // Asked for by name, holds and lapsed holds show too.
      const holds = adminBookingsResponseSchema.parse((await list('?status=held,expired')).json());
      expect(holds.bookings.map((b) => b.booking_id)).toEqual([ids.held, ids.expired]);
      const flagged = adminBookingsResponseSchema.parse((await list('?attention=true')).json());
      expect(flagged.bookings.map((b) => b.booking_id)).toEqual([ids.thu09]);
      expect(flagged.bookings[0]?.attention_reason).toBe('outside_hours');
      const unflagged = adminBookingsResponseSchema.parse((await list('?attention=false')).json());
      expect(unflagged.total).toBe(4);
    });

    it('refuses bad filters with codes', async () => {
      const cases: [string, string][] = [
        ['?status=lost', 'VALIDATION_FAILED'],
        ['?from=2026-02-30', 'INVALID_DATE'],
        [`?from=${FRIDAY}&to=${THURSDAY}`, 'INVALID_DATE_RANGE'],
        ['?page=0', 'VALIDATION_FAILED'],
        ['?page_size=101', 'VALIDATION_FAILED'],
        ['?attention=yes', 'VALIDATION_FAILED'],
      ];
      for (const [query, code] of cases) {
        const res = await list(query);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().code, query).toBe(code);
      }
      const bad = await get('/api/v1/organization/not-an-id/bookings', org.admin);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('INVALID_ID');
    });

    it("keeps another organization's bookings from admins and staff", async () => {
      const other = await get(`/api/v1/organization/${org.fx.orgId}/bookings`, B.admin);
      expect(other.statusCode).toBe(403);
      expect(other.body).not.toContain('+2376770');
      expect((await list('', org.staff)).statusCode).toBe(403);
      expect((await get(`/api/v1/organization/${org.fx.orgId}/bookings`)).statusCode).toBe(401);
      const ops = await list('', operator);
      expect(ops.statusCode).toBe(200);
      expect(ops.json().total).toBe(5);
      const unknown = await get(`/api/v1/organization/${UNKNOWN_ID}/bookings`, operator);
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe('POST /:organization_id/services', () => {
    const body = {
      service_name: 'Passport renewal',
      service_description: 'Renew a passport. Bring the old one.',
      duration: '60',
    };

    it('creates a service with its slots, beside the public GET on a similar path', async () => {
      const res = await send('POST', `/api/v1/${A.fx.orgId}/services`, A.admin, {
        ...body,
        organization_id: A.fx.orgId,
        service_name_fr: 'Renouvellement de passeport',
        capacity: 2,
      });
      expect(res.statusCode, res.body).toBe(201);
      const { service, flagged_bookings } = serviceChangeResponseSchema.parse(res.json());
      expect(service).toMatchObject({
        organization_id: A.fx.orgId,
        service_name: 'Passport renewal',
        service_name_fr: 'Renouvellement de passeport',
        service_description_fr: null,
        duration: 60,
        capacity: 2,
        active: true,
      });
      expect(flagged_bookings).toBe(0);
      const slots = slotListResponseSchema.parse(
        (await get(`/api/v1/service/${service.service_id}/slots`)).json(),
      );
      // 07:00 … 17:00: eleven one-hour slots.
      expect(slots.slots).toHaveLength(11);
      const publicList = await get(`/api/v1/organizations/${A.fx.orgId}/services`);
      expect(publicList.statusCode).toBe(200);
      expect(publicList.json().services.map((s: { service_id: string }) => s.service_id)).toContain(
        service.service_id,
      );
    });

    it('refuses bad bodies with their field codes', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ ...body, service_name: ' ' }, 'INVALID_NAME'],
        [{ ...body, service_description: '' }, 'INVALID_DESCRIPTION'],
        [{ ...body, duration: 3 }, 'INVALID_DURATION'],
        [{ ...body, duration: 'ten' }, 'INVALID_DURATION'],
        [{ ...body, capacity: 0 }, 'INVALID_CAPACITY'],
        [{ ...body, organization_id: B.fx.orgId }, 'INVALID_ID'],
      ];
      for (const [payload, code] of cases) {
        const res = await send('POST', `/api/v1/${A.fx.orgId}/services`, A.admin, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().code, JSON.stringify(payload)).toBe(code);
      }
      const badPath = await send('POST', '/api/v1/not-a-uuid/services', A.admin, body);
      expect(badPath.statusCode).toBe(400);
      expect(badPath.json().code).toBe('INVALID_ID');
    });

    it("refuses another organization's path, staff and no session; operators may", async () => {
      const before = await db
        .selectFrom('services')
        .select('id')
        .where('organization_id', '=', B.fx.orgId)
        .execute();
      const other = await send('POST', `/api/v1/${B.fx.orgId}/services`, A.admin, body);
      expect(other.statusCode).toBe(403);
      expect((await send('POST', `/api/v1/${A.fx.orgId}/services`, A.staff, body)).statusCode).toBe(
        403,
      );
      expect((await send('POST', `/api/v1/${A.fx.orgId}/services`, {}, body)).statusCode).toBe(401);
      const after = await db
        .selectFrom('services')
        .select('id')
        .where('organization_id', '=', B.fx.orgId)
        .execute();
      expect(after.length).toBe(before.length);
      const ops = await send('POST', `/api/v1/${B.fx.orgId}/services`, operator, body);
      expect(ops.statusCode).toBe(201);
      expect(ops.json().service.organization_id).toBe(B.fx.orgId);
      const unknown = await send('POST', `/api/v1/${UNKNOWN_ID}/services`, operator, body);
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe('PATCH /organization/services/:service_id', () => {
    let org: Org;
    beforeAll(async () => {
      org = await createOrg('Svc');
    });
    const patch = (serviceId: string, payload: object, headers = org.admin) =>
      send('PATCH', `/api/v1/organization/services/${serviceId}`, headers, payload);

    it('edits names and descriptions in both languages, and capacity', async () => {
      const res = await patch(org.fx.serviceId, {
        service_name: 'Birth certificates',
        service_description: 'Copies of birth certificates.',
        service_name_fr: 'Actes de naissance',
        service_description_fr: "Copies d'actes de naissance.",
        capacity: 3,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(serviceChangeResponseSchema.parse(res.json()).service).toMatchObject({
        service_name: 'Birth certificates',
        service_name_fr: 'Actes de naissance',
        service_description_fr: "Copies d'actes de naissance.",
        capacity: 3,
        duration: 15,
        active: true,
      });
      // An empty French text falls back to English (stored as null).
      const cleared = await patch(org.fx.serviceId, { service_name_fr: '' });
      expect(cleared.json().service.service_name_fr).toBeNull();
      expect(cleared.json().service.service_description_fr).toBe("Copies d'actes de naissance.");
    });

    it('a duration change regenerates slots and flags a booking whose slot went, until it is back', async () => {
      const at0715 = await book(org.fx, 1, THURSDAY); // 07:15 is not a 30-minute start
      const at0730 = await book(org.fx, 2, FRIDAY); // 07:30 is
      const res = await patch(org.fx.serviceId, { duration: 30 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().flagged_bookings).toBe(1);
      expect(await attentionOf(at0715)).toBe('slot_changed');
      expect(await attentionOf(at0730)).toBeNull();
      const slots = slotListResponseSchema.parse(
        (await get(`/api/v1/service/${org.fx.serviceId}/slots`)).json(),
      );
      expect(slots.slots).toHaveLength(22);
      // Still listed for the admin, flagged.
      const listed = adminBookingsResponseSchema.parse(
        (
          await get(`/api/v1/organization/${org.fx.orgId}/bookings?attention=true`, org.admin)
        ).json(),
      );
      expect(listed.bookings.map((b) => [b.booking_id, b.attention_reason])).toEqual([
        [at0715, 'slot_changed'],
      ]);
      const data = organizationDataResponseSchema.parse(
        (await get('/api/v1/organization/data', org.admin)).json(),
      );
      expect(data.stats.needs_attention).toBe(1);

      const back = await patch(org.fx.serviceId, { duration: 15 });
      expect(back.json().flagged_bookings).toBe(0);
      expect(await attentionOf(at0715)).toBeNull();
    });

    it('deactivating keeps and flags bookings, takes the service off the public pages; reactivating undoes it', async () => {
      const booked = await book(org.fx, 10, THURSDAY);
      const past = await book(org.fx, 10, '2026-03-01'); // before today: left alone
      const off = await patch(org.fx.serviceId, { active: false });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().service.active).toBe(false);
      expect(off.json().flagged_bookings).toBeGreaterThanOrEqual(1);
      expect(await attentionOf(booked)).toBe('service_inactive');
      expect(await attentionOf(past)).toBeNull();
      expect((await get(`/api/v1/service/${org.fx.serviceId}`)).statusCode).toBe(404);
      expect((await get(`/api/v1/service/${org.fx.serviceId}/slots`)).statusCode).toBe(404);
      const publicList = await get(`/api/v1/organizations/${org.fx.orgId}/services`);
      expect(publicList.json().services.map((s: { service_id: string }) => s.service_id)).toEqual([
        org.fx.otherServiceId,
      ]);
      const initiate = await inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        payload: initiateBody(org.fx, { slotIndex: 11, date: THURSDAY }),
      });
      expect(initiate.statusCode).toBe(404);
      // The admin still sees it, inactive, and the booking is still there.
      const data = organizationDataResponseSchema.parse(
        (await get('/api/v1/organization/data', org.admin)).json(),
      );
      expect(data.services.find((s) => s.service_id === org.fx.serviceId)?.active).toBe(false);
      expect(data.stats.total_services).toBe(1);
      const row = await db
        .selectFrom('bookings')
        .select('status')
        .where('id', '=', booked)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('confirmed');

      const on = await patch(org.fx.serviceId, { active: true });
      expect(on.json().service.active).toBe(true);
      expect(await attentionOf(booked)).toBeNull();
      expect((await get(`/api/v1/service/${org.fx.serviceId}/slots`)).statusCode).toBe(200);
    });

    it('refuses bad bodies, unknown ids, another organization, staff and no session', async () => {
      expect((await patch(org.fx.serviceId, { duration: 721 })).json().code).toBe(
        'INVALID_DURATION',
      );
      expect((await patch(org.fx.serviceId, { service_name: '' })).json().code).toBe(
        'INVALID_NAME',
      );
      expect((await patch(org.fx.serviceId, { active: 'no' })).statusCode).toBe(400);
      const unknown = await patch(UNKNOWN_ID, { capacity: 2 });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('SERVICE_NOT_FOUND');
      expect((await patch('nope', { capacity: 2 })).json().code).toBe('INVALID_ID');
      const other = await patch(B.fx.serviceId, { service_name: 'Taken over' }, org.admin);
      expect(other.statusCode).toBe(403);
      const bName = await db
        .selectFrom('services')
        .select('name')
        .where('id', '=', B.fx.serviceId)
        .executeTakeFirstOrThrow();
      expect(bName.name).toBe('Counter 15');
      expect((await patch(org.fx.serviceId, { capacity: 2 }, org.staff)).statusCode).toBe(403);
      expect((await patch(org.fx.serviceId, { capacity: 2 }, {})).statusCode).toBe(401);
      expect((await patch(org.fx.serviceId, { capacity: 2 }, operator)).statusCode).toBe(200);
    });
  });

  describe('PATCH /organization/update/profile', () => {
    it('accepts HH:MM and HH:MM:SS and never changes the e-mail', async () => {
      const res = await patchProfile(A.admin, {
        start_time: '07:00',
        end_time: '18:00:00',
        email: 'someone.else@example.cm',
        city: 'Douala',
      });
      expect(res.statusCode, res.body).toBe(200);
      const { organizationData } = updateProfileResponseSchema.parse(res.json());
      expect(organizationData).toMatchObject({
        opens_at: '07:00',
        closes_at: '18:00',
        email: 'guichetA@example.cm',
      });
      const stored = await db
        .selectFrom('organizations')
        .select('email')
        .where('id', '=', A.fx.orgId)
        .executeTakeFirstOrThrow();
      expect(stored.email).toBe('guichetA@example.cm');
    });

    it('refuses bad times, hours and time zones with their codes', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ start_time: '8:00' }, 'INVALID_TIME'],
        [{ start_time: '08:00:30' }, 'INVALID_TIME'],
        [{ end_time: '25:00' }, 'INVALID_TIME'],
        [{ start_time: '18:00', end_time: '08:00' }, 'INVALID_HOURS'],
        [{ start_time: '09:00', end_time: '09:00:00' }, 'INVALID_HOURS'],
        [{ time_zone: 'Mars/Olympus' }, 'INVALID_TIME_ZONE'],
        [{ time_zone: '' }, 'INVALID_TIME_ZONE'],
        [{ name: '  ' }, 'INVALID_NAME'],
        [{ open_days: [7] }, 'INVALID_OPEN_DAYS'],
        [{ image_url: 'https://evil.example/logo.png' }, 'INVALID_IMAGE_URL'],
        [{ image_url: 'http://qless.test/api/v1/uploads/../../etc/passwd' }, 'INVALID_IMAGE_URL'],
      ];
      for (const [overrides, code] of cases) {
        const res = await patchProfile(A.admin, overrides);
        expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
        expect(res.json().code, JSON.stringify(overrides)).toBe(code);
      }
      const zone = await patchProfile(A.admin, { time_zone: 'Africa/Lagos' });
      expect(zone.json().organizationData.time_zone).toBe('Africa/Lagos');
      const back = await patchProfile(A.admin, { time_zone: 'Africa/Douala' });
      expect(back.json().organizationData.time_zone).toBe('Africa/Douala');
    });

    it('new hours regenerate slots and flag a booking outside them (still listed) until the hours come back', async () => {
      const late = await book(A.fx, 40, THURSDAY); // 17:00
      const early = await book(A.fx, 4, THURSDAY); // 08:00
      const narrow = await patchProfile(A.admin, { start_time: '07:00', end_time: '16:00' });
      expect(narrow.statusCode, narrow.body).toBe(200);
      expect(narrow.json().flagged_bookings).toBe(1);
      expect(await attentionOf(late)).toBe('outside_hours');
      expect(await attentionOf(early)).toBeNull();
      const slots = slotListResponseSchema.parse(
        (await get(`/api/v1/service/${A.fx.serviceId}/slots`)).json(),
      );
      // 07:00 … 15:45
      expect(slots.slots).toHaveLength(36);
      expect(slots.slots.at(-1)?.end_time.Microseconds).toBe(16 * 60 * MICROS_PER_MINUTE);
      const listed = adminBookingsResponseSchema.parse(
        (
          await get(
            `/api/v1/organization/${A.fx.orgId}/bookings?from=${THURSDAY}&to=${THURSDAY}`,
            A.admin,
          )
        ).json(),
      );
      expect(listed.bookings.find((b) => b.booking_id === late)).toMatchObject({
        status: 'confirmed',
        time: '17:00',
        attention_reason: 'outside_hours',
      });

      const wide = await patchProfile(A.admin, { start_time: '07:00:00', end_time: '18:00:00' });
      expect(wide.json().flagged_bookings).toBe(0);
      expect(await attentionOf(late)).toBeNull();
      const again = slotListResponseSchema.parse(
        (await get(`/api/v1/service/${A.fx.serviceId}/slots`)).json(),
      );
      expect(again.slots).toHaveLength(44);
      // The booked slot kept its id through it all.
      expect(again.slots.map((s) => s.id)).toContain(A.fx.slotIds[40]);
    });

    it('closed weekdays flag bookings, show in the public slots and are refused at payment', async () => {
      const thursdayBooking = await book(A.fx, 30, THURSDAY);
      const res = await patchProfile(A.admin, { open_days: [1, 2, 3, 5] }); // no Thursday, no weekend
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().organizationData.open_days).toEqual([1, 2, 3, 5]);
      expect(res.json().flagged_bookings).toBeGreaterThanOrEqual(1);
      expect(await attentionOf(thursdayBooking)).toBe('closed_day');
      const slots = slotListResponseSchema.parse(
        (await get(`/api/v1/service/${A.fx.serviceId}/slots`)).json(),
      );
      expect(slots.open_days).toEqual([1, 2, 3, 5]);
      const closed = await inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        payload: initiateBody(A.fx, { slotIndex: 31, date: THURSDAY }),
      });
      expect(closed.statusCode).toBe(409);
      expect(closed.json().code).toBe('DAY_CLOSED');
      const open = await inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        payload: initiateBody(A.fx, { slotIndex: 31, date: FRIDAY, phone_number: '+237677555001' }),
      });
      expect(open.statusCode, open.body).toBe(201);

      const all = await patchProfile(A.admin, { open_days: [0, 1, 2, 3, 4, 5, 6] });
      expect(all.json().organizationData.open_days).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(await attentionOf(thursdayBooking)).toBeNull();
    });

    it('an incomplete profile takes the organization off the public catalogue', async () => {
      const res = await patchProfile(A.admin, { city: '' });
      expect(res.json().organizationData).toMatchObject({
        missing_fields: ['city'],
        listed: false,
      });
      const list = await get('/api/v1/organizations');
      expect(
        list.json().organizations.map((o: { organization_id: string }) => o.organization_id),
      ).not.toContain(A.fx.orgId);
      expect((await get(`/api/v1/service/${A.fx.serviceId}/slots`)).statusCode).toBe(404);
      const back = await patchProfile(A.admin, { city: 'Douala' });
      expect(back.json().organizationData.listed).toBe(true);
    });

    it("refuses another organization's profile, staff and no session; operators name one", async () => {
      const other = await patchProfile(A.admin, {
        organization_id: B.fx.orgId,
        name: 'Taken over',
      });
      expect(other.statusCode).toBe(403);
      const bRow = await db
        .selectFrom('organizations')
        .select('name')
        .where('id', '=', B.fx.orgId)
        .executeTakeFirstOrThrow();
      expect(bRow.name).toBe('Guichet Unique B');
      expect((await patchProfile(A.staff)).statusCode).toBe(403);
      expect((await patchProfile({})).statusCode).toBe(401);
      expect((await patchProfile(operator)).statusCode).toBe(400);
      const ops = await patchProfile(operator, {
        organization_id: B.fx.orgId,
        name: 'Guichet Unique B',
        email: undefined,
      });
      expect(ops.statusCode, ops.body).toBe(200);
      expect(ops.json().organizationData.organization_id).toBe(B.fx.orgId);
    });

    it('keeps the logo it has, removes it with null, and refuses an upload of another organization', async () => {
      const mine = 'http://qless.test/api/v1/uploads/0123456789abcdef0123456789abcdef.png';
      const theirs = 'http://qless.test/api/v1/uploads/fedcba9876543210fedcba9876543210.png';
      const upload = (organizationId: string, fileName: string) =>
        db
          .insertInto('uploads')
          .values({
            organization_id: organizationId,
            file_name: fileName,
            content_type: 'image/png',
            bytes: 100,
            created_by: null,
            created_at: s.clock.now(),
          })
          .execute();
      await upload(A.fx.orgId, '0123456789abcdef0123456789abcdef.png');
      await upload(B.fx.orgId, 'fedcba9876543210fedcba9876543210.png');
      const refused = await patchProfile(A.admin, { image_url: theirs });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('INVALID_IMAGE_URL');
      const withQuery = await patchProfile(A.admin, { image_url: `${mine}?x=1` });
      expect(withQuery.json().code).toBe('INVALID_IMAGE_URL');
      const otherHost = await patchProfile(A.admin, {
        image_url: mine.replace('qless.test', 'evil.test'),
      });
      expect(otherHost.json().code).toBe('INVALID_IMAGE_URL');
      const set = await patchProfile(A.admin, { image_url: mine });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().organizationData.image_url).toBe(mine);
      // Sent back unchanged with the rest of the form: fine.
      expect((await patchProfile(A.admin, { image_url: mine })).statusCode).toBe(200);
      // Not sent at all: kept.
      expect((await patchProfile(A.admin)).json().organizationData.image_url).toBe(mine);
      const removed = await patchProfile(A.admin, { image_url: null });
      expect(removed.json().organizationData.image_url).toBeNull();
    });
  });

  describe('closures', () => {
    it("a closure flags the day's bookings, shows publicly, is refused at payment, and can be removed", async () => {
      const booking = await book(A.fx, 24, SATURDAY);
      const res = await send('POST', '/api/v1/organization/closures', A.admin, {
        date: SATURDAY,
        reason: 'Fête',
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = closuresResponseSchema.parse(res.json());
      expect(body.closures).toEqual([{ date: SATURDAY, reason: 'Fête' }]);
      expect(body.flagged_bookings).toBe(1);
      expect(await attentionOf(booking)).toBe('closure');
      // Setting it again changes the reason only.
      const again = await send('POST', '/api/v1/organization/closures', A.admin, {
        date: SATURDAY,
      });
      expect(again.json()).toEqual({
        closures: [{ date: SATURDAY, reason: '' }],
        flagged_bookings: 0,
      });

      const slots = slotListResponseSchema.parse(
        (await get(`/api/v1/service/${A.fx.serviceId}/slots`)).json(),
      );
      expect(slots.closures).toEqual([SATURDAY]);
      const data = organizationDataResponseSchema.parse(
        (await get('/api/v1/organization/data', A.admin)).json(),
      );
      expect(data.organizationData.closures).toEqual([{ date: SATURDAY, reason: '' }]);
      const initiate = await inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        payload: initiateBody(A.fx, {
          slotIndex: 25,
          date: SATURDAY,
          phone_number: '+237677555002',
        }),
      });
      expect(initiate.statusCode).toBe(409);
      expect(initiate.json().code).toBe('DAY_CLOSED');

      const removed = await send('DELETE', `/api/v1/organization/closures/${SATURDAY}`, A.admin);
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json()).toEqual({ closures: [], flagged_bookings: 0 });
      expect(await attentionOf(booking)).toBeNull();
      // Removing what is not there is no error.
      expect(
        (await send('DELETE', `/api/v1/organization/closures/${SATURDAY}`, A.admin)).statusCode,
      ).toBe(200);
    });

    it('refuses past and malformed dates', async () => {
      const past = await send('POST', '/api/v1/organization/closures', A.admin, {
        date: '2026-03-03',
      });
      expect(past.statusCode).toBe(400);
      expect(past.json().code).toBe('INVALID_DATE');
      const far = await send('POST', '/api/v1/organization/closures', A.admin, {
        date: '2029-01-01',
      });
      expect(far.json().code).toBe('INVALID_DATE');
      const bad = await send('POST', '/api/v1/organization/closures', A.admin, {
        date: '05/03/2026',
      });
      expect(bad.json().code).toBe('INVALID_DATE');
      const badDelete = await send('DELETE', '/api/v1/organization/closures/2026-02-31', A.admin);
      expect(badDelete.json().code).toBe('INVALID_DATE');
      // Today is allowed.
      const today = await send('POST', '/api/v1/organization/closures', A.admin, { date: TODAY });
      expect(today.statusCode).toBe(200);
      await send('DELETE', `/api/v1/organization/closures/${TODAY}`, A.admin);
    });

    it("refuses another organization's closures, staff and no session; operators name one", async () => {
      const other = await send('POST', '/api/v1/organization/closures', A.admin, {
        date: SATURDAY,
        organization_id: B.fx.orgId,
      });
      expect(other.statusCode).toBe(403);
      const otherDelete = await send(
        'DELETE',
        `/api/v1/organization/closures/${SATURDAY}?organization_id=${B.fx.orgId}`,
        A.admin,
      );
      expect(otherDelete.statusCode).toBe(403);
      expect(
        (await send('POST', '/api/v1/organization/closures', A.staff, { date: SATURDAY }))
          .statusCode,
      ).toBe(403);
      expect(
        (await send('DELETE', `/api/v1/organization/closures/${SATURDAY}`, A.staff)).statusCode,
      ).toBe(403);
      expect(
        (await send('POST', '/api/v1/organization/closures', {}, { date: SATURDAY })).statusCode,
      ).toBe(401);
      const bClosures = await db
        .selectFrom('organization_closures')
        .select('closed_on')
        .where('organization_id', '=', B.fx.orgId)
        .execute();
      expect(bClosures).toEqual([]);
      expect(
        (await send('POST', '/api/v1/organization/closures', operator, { date: SATURDAY }))
          .statusCode,
      ).toBe(400);
      const ops = await send('POST', '/api/v1/organization/closures', operator, {
        date: SATURDAY,
        organization_id: B.fx.orgId,
      });
      expect(ops.statusCode).toBe(200);
      const opsDelete = await send(
        'DELETE',
        `/api/v1/organization/closures/${SATURDAY}?organization_id=${B.fx.orgId}`,
        operator,
      );
      expect(opsDelete.json().closures).toEqual([]);
    });
  });
});
