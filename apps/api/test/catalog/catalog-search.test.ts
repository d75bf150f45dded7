import {
  DEFAULT_TIME_ZONE,
  foldForSearch,
  organizationListResponseSchema,
  SEARCH_FOLD_FROM,
  serviceListResponseSchema,
  serviceResponseSchema,
  slotListResponseSchema,
  takenSlotListResponseSchema,
} from '@qless/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/demo/seed.js';
import { seedOrganizations } from '../../src/demo/seed-data.js';
import { syncServiceSlots } from '../../src/modules/slots/slots.repository.js';
import { useStack } from '../support/app-fixture.js';
import { PINNED_NOW } from '../support/test-app.js';

/** Catalogue search and the week view's fields (issue 10). */
describe('catalogue search and slot-view fields', () => {
  const s = useStack({ env: { BOOKING_HORIZON_DAYS: '30' }, fixture: false });

  beforeAll(async () => {
    await seedDemo(s.database.db, new Date(PINNED_NOW), DEFAULT_TIME_ZONE);
  });

  // The tests write to the database directly (not through a request): the read cache hears
  // of it by notification, which on PostgreSQL may arrive after the next request; sync first.
  const get = async (url: string) => {
    await s.app.readCache.sync();
    return s.app.inject({ method: 'GET', url });
  };
  const search = async (query: string) => {
    const res = await get(`/api/v1/organizations?${query}`);
    expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
    return organizationListResponseSchema.parse(res.json());
  };
  const names = async (q: string) =>
    (await search(`q=${encodeURIComponent(q)}&page_size=100`)).organizations.map((o) => o.name);

  async function addOrganization(values: {
    slug: string;
    name: string;
    city?: string;
    category?: string;
    timeZone?: string;
  }) {
    const org = await s.database.db
      .insertInto('organizations')
      .values({
        slug: values.slug,
        name: values.name,
        email: `${values.slug}@example.cm`,
        time_zone: values.timeZone ?? DEFAULT_TIME_ZONE,
        city: values.city ?? 'Douala',
        category: values.category ?? 'clinic',
        location: 'Rue 1, Akwa',
        start_time: '08:00',
        end_time: '12:00',
        verified_at: new Date(PINNED_NOW),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return org.id;
  }

  describe('GET /api/v1/organizations?q=&page=&page_size=', () => {
    it('answers the spec client as before when no search is asked for', async () => {
      const res = await get('/api/v1/organizations');
      expect(Object.keys(res.json())).toEqual(['organizations']);
      expect(res.json().organizations).toHaveLength(seedOrganizations.length);
    });

    it('ignores accents and case: "etat" finds "État civil", "YAOUNDE" finds Yaoundé', async () => {
      expect(await names('etat')).toEqual([
        "Centre d'État Civil de Douala 1er – Bonanjo",
        "Centre d'État Civil de Yaoundé 4e – Ekounou",
      ]);
      expect(await names('ÉTAT CIVIL')).toEqual(await names('etat civil'));
      expect(await names('energie')).toEqual(['Énergie du Littoral – Agence Commerciale de Deido']);
      expect(await names('TÉLÉCOM')).toEqual(['Mefou Télécom – Espace Clients Avenue Kennedy']);
      // A typographic apostrophe (phones type one) matches the straight one of the name.
      expect(await names('d’état')).toHaveLength(2);
    });

    it('searches the city: "yaounde" finds the organizations of Yaoundé only, and those with a branch there', async () => {
      const inYaounde = seedOrganizations.filter(
        (o) => o.city === 'Yaoundé' || o.branches?.some((b) => b.city === 'Yaoundé'),
      );
      const found = await search('q=yaounde&page_size=100');
      expect(found.total).toBe(inYaounde.length);
      for (const o of found.organizations) {
        expect([o.city, ...(o.branch_cities ?? [])]).toContain('Yaoundé');
      }
      // The bank with an agency in Yaoundé is listed once, its head, with its branches counted.
      const bank = found.organizations.find((o) => o.name === 'Banque des Hauts Plateaux');
      expect(bank).toMatchObject({ city: 'Bafoussam', branch_count: 4, parent_id: null });
    });

    it('searches the category in both languages: "banque" and "bank" find every bank', async () => {
      const banks = seedOrganizations.filter((o) => o.category === 'bank').map((o) => o.name);
      expect(banks.length).toBeGreaterThanOrEqual(3);
      for (const q of ['banque', 'bank', 'Banque', 'BANK']) {
        const found = await names(q);
        for (const bank of banks) expect(found, q).toContain(bank);
        // Nothing that is not a bank (and has no "ban…" in its name or city).
        expect(found.length, q).toBe(banks.length);
      }
      // "hôpital" finds the hospitals by their category "hospital".
      const hospitals = seedOrganizations.filter((o) => o.category === 'hospital');
      expect((await names('hopital')).sort()).toEqual(hospitals.map((o) => o.name).sort());
      // A category typed in French by an admin is found by its English name too.
      const id = await addOrganization({
        slug: 'cabinet-hopital-test',
        name: 'Cabinet Ngoa',
        category: 'Hôpital de district',
      });
      expect(await names('hospital')).toContain('Cabinet Ngoa');
      await s.database.db.deleteFrom('organizations').where('id', '=', id).execute();
    });

    it('needs every word: "banque douala" finds the banks of Douala', async () => {
      const expected = seedOrganizations
        .filter(
          (o) =>
            o.category === 'bank' &&
            (o.city === 'Douala' || o.branches?.some((b) => b.city === 'Douala')),
        )
        .map((o) => o.name)
        .sort();
      expect((await names('banque   douala')).sort()).toEqual(expected);
      expect(await names('etat yaounde')).toEqual(["Centre d'État Civil de Yaoundé 4e – Ekounou"]);
      expect(await names('etat bamenda')).toEqual([]);
    });

    it('takes % and _ literally', async () => {
      expect(await names('%')).toEqual([]);
      expect(await names('_')).toEqual([]);
      expect(await names('centre%civil')).toEqual([]);
    });

    it('pages the matches in folded-name order, with the total', async () => {
      const all = await search('page_size=100');
      expect(all.total).toBe(seedOrganizations.length);
      const order = all.organizations.map((o) => o.name);
      // "Énergie" sorts with the E's.
      expect(order.findIndex((n) => n.startsWith('Énergie'))).toBeLessThan(
        order.findIndex((n) => n.startsWith('Highlands')),
      );
      const first = await search('page=1&page_size=4');
      const second = await search('page=2&page_size=4');
      const last = await search('page=4&page_size=4');
      expect(first).toMatchObject({ total: seedOrganizations.length, page: 1, page_size: 4 });
      expect(first.organizations.map((o) => o.name)).toEqual(order.slice(0, 4));
      expect(second.organizations.map((o) => o.name)).toEqual(order.slice(4, 8));
      expect(last.organizations.map((o) => o.name)).toEqual(order.slice(12, 16));
      // Past the end: an empty page, the total still told.
      const beyond = await search('page=9&page_size=4');
      expect(beyond.organizations).toEqual([]);
      expect(beyond.total).toBe(seedOrganizations.length);
      // A search page defaults to 12 organizations.
      const defaults = await search('q=');
      expect(defaults).toMatchObject({ page: 1, page_size: 12 });
      expect(defaults.organizations).toHaveLength(12);
    });

    it('refuses bad queries with a code, never a 500', async () => {
      const cases: [string, string][] = [
        ['q=a%00b', 'INVALID_QUERY'],
        ['q=%0A', 'INVALID_QUERY'],
        [`q=${'x'.repeat(101)}`, 'INVALID_QUERY'],
        ['q=a&q=b', 'INVALID_QUERY'],
        ['page=0', 'INVALID_PAGE'],
        ['page=abc', 'INVALID_PAGE'],
        ['page=1.5', 'INVALID_PAGE'],
        ['page_size=101', 'INVALID_PAGE'],
        ['page_size=-1', 'INVALID_PAGE'],
      ];
      for (const [query, code] of cases) {
        const res = await get(`/api/v1/organizations?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().code, query).toBe(code);
      }
    });

    it('keeps unlisted organizations out of the search', async () => {
      await s.database.db
        .insertInto('organizations')
        .values({
          slug: 'etat-civil-cache',
          name: 'État Civil Caché',
          email: 'cache@example.cm',
          time_zone: DEFAULT_TIME_ZONE,
          city: 'Douala',
          category: 'civil-registry',
          location: 'Rue 2',
          start_time: '08:00',
          end_time: '12:00',
          verified_at: null,
        })
        .execute();
      expect(await names('cache')).toEqual([]);
    });

    it('folds in the database exactly as foldForSearch does (generated column = JS)', async () => {
      const samples = [
        SEARCH_FOLD_FROM,
        'ŒUVRE Cœur Æsop straße',
        'ABCXYZ abcxyz 0123 – — ’ ‘',
        ...seedOrganizations.map((o) => o.name),
      ];
      for (const [i, name] of samples.entries()) {
        const slug = `fold-sample-${i}`;
        await addOrganization({ slug, name, city: 'Yaoundé', category: 'Santé' });
        const row = await s.database.db
          .selectFrom('organizations')
          .select(['search_text', 'search_category'])
          .where('slug', '=', slug)
          .executeTakeFirstOrThrow();
        expect(row.search_text).toBe(
          `${foldForSearch(name)} ${foldForSearch('Yaoundé')} ${foldForSearch('Santé')}`,
        );
        expect(row.search_category).toBe('sante');
      }
      // Kept current by the database on every write, whoever writes.
      await s.database.db
        .updateTable('organizations')
        .set({ name: 'Clinique Évasion' })
        .where('slug', '=', 'fold-sample-1')
        .execute();
      expect(await names('evasion')).toEqual(['Clinique Évasion']);
      await s.database.db
        .deleteFrom('organizations')
        .where('slug', 'like', 'fold-sample-%')
        .execute();
    });
  });

  describe('French service texts', () => {
    it('gives every demo service its French name and description, and null when none', async () => {
      const org = await s.database.db
        .selectFrom('organizations')
        .select('id')
        .where('slug', '=', 'etat-civil-douala-1er-bonanjo')
        .executeTakeFirstOrThrow();
      const { services } = serviceListResponseSchema.parse(
        (await get(`/api/v1/organizations/${org.id}/services`)).json(),
      );
      const copy = services.find((s) => s.service_name === 'Certification of copies');
      expect(copy).toMatchObject({
        service_name_fr: 'Certification de copies',
        service_description_fr: expect.stringContaining('timbre fiscal'),
      });
      expect(services.every((s) => s.service_name_fr && s.service_description_fr)).toBe(true);
      const bare = await s.database.db
        .insertInto('services')
        .values({ organization_id: org.id, name: 'English only', duration_minutes: 30 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const one = serviceResponseSchema.parse((await get(`/api/v1/service/${bare.id}`)).json());
      expect(one.service).toMatchObject({ service_name_fr: null, service_description_fr: null });
    });

    it('fills the French texts of a database seeded before them, keeping an admin’s own', async () => {
      await s.database.db
        .updateTable('services')
        .set({ name_fr: null, description_fr: null })
        .where('slug', '=', 'account-opening')
        .execute();
      await s.database.db
        .updateTable('services')
        .set({ name_fr: 'Mon propre nom' })
        .where('slug', '=', 'loan-consultation')
        .execute();
      await seedDemo(s.database.db, new Date(PINNED_NOW), DEFAULT_TIME_ZONE);
      const rows = await s.database.db
        .selectFrom('services')
        .select(['slug', 'name_fr', 'description_fr'])
        .where('slug', 'in', ['account-opening', 'loan-consultation'])
        .execute();
      for (const row of rows) {
        if (row.slug === 'account-opening') {
          expect(row.name_fr).toMatch(/^Ouverture de compte/);
          expect(row.description_fr).toMatch(/^Ouvrez un compte/);
        } else {
          expect(row.name_fr).toBe('Mon propre nom');
        }
      }
    });
  });

  describe('GET /api/v1/service/:serviceId/slots: today and bookable_until', () => {
    it("uses the organization's zone, not the server's nor UTC", async () => {
      // 10:30 UTC: 11:30 on 4 March in Douala, already 5 March in the process zone of the
      // suite (UTC+14), still 3 March in Pago Pago (UTC−11).
      s.clock.set('2026-03-04T10:30:00Z');
      const pago = await addOrganization({
        slug: 'pago-office',
        name: 'Pago Office',
        timeZone: 'Pacific/Pago_Pago',
      });
      const pagoService = await s.database.db
        .insertInto('services')
        .values({ organization_id: pago, name: 'Desk', duration_minutes: 30 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await syncServiceSlots(s.database.db, pagoService.id, s.clock.now());
      const douala = await s.database.db
        .selectFrom('services as s')
        .innerJoin('organizations as o', 'o.id', 's.organization_id')
        .select('s.id')
        .where('o.slug', '=', 'banque-du-littoral-akwa')
        .where('s.slug', '=', 'account-opening')
        .executeTakeFirstOrThrow();
      const slotsOf = async (id: string) =>
        slotListResponseSchema.parse((await get(`/api/v1/service/${id}/slots`)).json());
      // BOOKING_HORIZON_DAYS is 30 in this app.
      expect(await slotsOf(douala.id)).toMatchObject({
        today: '2026-03-04',
        bookable_until: '2026-04-03',
      });
      expect(await slotsOf(pagoService.id)).toMatchObject({
        today: '2026-03-03',
        bookable_until: '2026-04-02',
      });
      // Just after midnight in Douala (23:10 UTC), today moves on there.
      s.clock.set('2026-03-04T23:10:00Z');
      expect(await slotsOf(douala.id)).toMatchObject({
        today: '2026-03-05',
        bookable_until: '2026-04-04',
      });
      s.clock.set(PINNED_NOW);
    });

    it('is the last date a payment can be started for', async () => {
      const svc = await s.database.db
        .selectFrom('services as s')
        .innerJoin('organizations as o', 'o.id', 's.organization_id')
        .select(['s.id'])
        .where('o.slug', '=', 'banque-du-littoral-akwa')
        .where('s.slug', '=', 'card-collection')
        .executeTakeFirstOrThrow();
      const view = slotListResponseSchema.parse(
        (await get(`/api/v1/service/${svc.id}/slots`)).json(),
      );
      const slot = view.slots[0];
      if (!slot) throw new Error('expected a slot');
      const pay = (date: string, phone: string) =>
        s.app.inject({
          method: 'POST',
          url: '/api/v1/payment/initiate',
          remoteAddress: '10.9.9.9',
          payload: {
            cus_name: 'Horizon Test',
            cus_email: 'horizon@example.com',
            phone_number: phone,
            amount: 2,
            currency: 'XAF',
            description: 'Service Payment',
            reference: `ref-${date}`,
            service_id: svc.id,
            slot_id: slot.id,
            date,
          },
        });
      const { addDays } = await import('@qless/contract');
      const beyond = await pay(addDays(view.bookable_until, 1), '677123451');
      expect(beyond.statusCode).toBe(400);
      expect(beyond.json().code).toBe('DATE_OUT_OF_HORIZON');
      const last = await pay(view.bookable_until, '677123452');
      expect(last.statusCode, last.body).toBe(201);
    });
  });

  describe('GET /api/v1/service/:serviceId/bookings: seats taken', () => {
    it('counts taken seats per slot and date, full or not, and no customer data', async () => {
      const org = await s.database.db
        .selectFrom('organizations')
        .select('id')
        .where('slug', '=', 'banque-du-littoral-akwa')
        .executeTakeFirstOrThrow();
      const svc = await s.database.db
        .insertInto('services')
        .values({ organization_id: org.id, name: 'Trio desk', duration_minutes: 60, capacity: 3 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await syncServiceSlots(s.database.db, svc.id, new Date(PINNED_NOW));
      const [a, b] = await s.database.db
        .selectFrom('slots')
        .select('id')
        .where('service_id', '=', svc.id)
        .orderBy('start_time')
        .execute();
      if (!a || !b) throw new Error('expected slots');
      const date = '2026-03-10';
      const base = {
        organization_id: org.id,
        service_id: svc.id,
        booking_date: date,
        cus_name: 'Seat Test',
        cus_email: 'seat@example.com',
        phone_number: '+237677000009',
      };
      const later = new Date(new Date(PINNED_NOW).getTime() + 5 * 60_000);
      const earlier = new Date(new Date(PINNED_NOW).getTime() - 60_000);
      await s.database.db
        .insertInto('bookings')
        .values([
          { ...base, slot_id: a.id, seat: 1, status: 'confirmed', ticket_code: 'QL-SEAT-A1' },
          { ...base, slot_id: a.id, seat: 2, status: 'held', hold_expires_at: later },
          { ...base, slot_id: a.id, seat: 3, status: 'cancelled' },
          { ...base, slot_id: b.id, seat: 1, status: 'held', hold_expires_at: earlier },
        ])
        .execute();
      const res = await get(`/api/v1/service/${svc.id}/bookings?start=${date}&end=${date}`);
      const body = takenSlotListResponseSchema.parse(res.json());
      expect(body.bookings).toEqual([]);
      expect(body.seats_taken).toEqual([{ booking_date: date, slot_id: a.id, taken: 2 }]);
      expect(res.body).not.toMatch(/Seat Test|seat@example|\+237/);
      await s.database.db
        .insertInto('bookings')
        .values({ ...base, slot_id: a.id, seat: 3, status: 'confirmed', ticket_code: 'QL-SEAT-A3' })
        .execute();
      const full = takenSlotListResponseSchema.parse(
        (await get(`/api/v1/service/${svc.id}/bookings?start=${date}&end=${date}`)).json(),
      );
      expect(full.bookings).toEqual([{ booking_date: date, slot_id: a.id }]);
      expect(full.seats_taken).toEqual([{ booking_date: date, slot_id: a.id, taken: 3 }]);
    });
  });
});
