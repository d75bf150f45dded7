import { errorBodySchema } from '@qless/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { signSimulatorCallback } from '../../src/providers/simulator.js';
import { useStack } from '../support/app-fixture.js';
import { bearer, createUser, signIn } from '../support/auth-helpers.js';
import { initiateBody } from '../support/fixtures.js';
import { NO_LIMITS } from '../support/payment-helpers.js';
import {
  applyEdits,
  collectRoute,
  type DeclaredRoute,
  LEAKS,
  type Mutation,
  mutationFor,
  payloadOf,
  urlOf,
} from '../support/route-fuzz.js';

/** Fixed so that a failure replays; fast-check prints the seed and the shrunk case. */
const SEED = Number(process.env.FUZZ_SEED ?? 20260309);
/** Per route; 40 × the app's ~130 routes is 5,200 requests (FUZZ_RUNS=1000 for a long hunt). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const CALLBACK_FIELDS = [
  'status',
  'reference',
  'external_reference',
  'amount',
  'currency',
  'operator',
  'code',
  'operator_reference',
];

describe('every declared route, fed mutated input', () => {
  let paymentId: string;
  let bookingId: string;
  let simulatorKey: string;
  let providerReference: string;
  let counterId: string;
  let boardId: string;
  let visitId: string;
  const routes: DeclaredRoute[] = [];
  let operator: { authorization: string };
  const s = useStack({
    env: {
      ...NO_LIMITS,
      RATE_LIMIT_CONTACT_PER_IP: '100000',
      RATE_LIMIT_TICKET_PER_IP: '100000',
      RATE_LIMIT_TICKET_GLOBAL: '100000',
      LOGIN_FAILURES_PER_ACCOUNT: '100000',
      LOGIN_FAILURES_PER_ACCOUNT_CEILING: '100000',
      LOGIN_FAILURES_PER_IP: '100000',
      SIMULATOR_DELAY_MS: '600000',
    },
    onRoute: (route) => collectRoute(routes, route),
  });

  beforeAll(async () => {
    // Guarded routes are fuzzed as an operator (who may act on any organization), so the
    // mutations reach validation and the handlers instead of stopping at 401.
    await createUser(s.database.db, { email: 'fuzz@qless.cm', role: 'operator' });
    const started = await s.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(s.fx, { phone_number: '+237677000111' }),
    });
    expect(started.statusCode, started.body).toBe(201);
    const startedPayment = (
      started.json() as { payment: { payment_id: string; booking_id: string } }
    ).payment;
    paymentId = startedPayment.payment_id;
    bookingId = startedPayment.booking_id;
    const key = await s.database.db
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', 'simulator_signing_key')
      .executeTakeFirstOrThrow();
    simulatorKey = key.value;
    const payment = await s.database.db
      .selectFrom('payments')
      .select('provider_reference')
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    providerReference = payment.provider_reference ?? '';
    // The queue's routes name a counter, a board and a visit of the fixture organization.
    const db = s.database.db;
    const counter = await db
      .insertInto('counters')
      .values({ organization_id: s.fx.orgId, name: 'Guichet 1', state: 'open' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('counter_services')
      .values({ counter_id: counter.id, service_id: s.fx.serviceId })
      .execute();
    counterId = counter.id;
    const board = await db
      .insertInto('boards')
      .values({ organization_id: s.fx.orgId, name: 'Hall', token_hash: 'not-a-token-hash' })
      .returning('id')
      .executeTakeFirstOrThrow();
    boardId = board.id;
    const now = s.clock.now();
    const visit = await db
      .insertInto('visits')
      .values({
        organization_id: s.fx.orgId,
        service_id: s.fx.serviceId,
        visit_date: '2026-03-04',
        letter: 'A',
        number: 1,
        source: 'staff',
        customer_name: 'Fuzz Walk-in',
        arrived_at: now,
        queued_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    visitId = visit.id;
    // As the routes leave a number handed out: the service keeps its letter, the day its count.
    await db
      .updateTable('services')
      .set({ queue_letter: 'A' })
      .where('id', '=', s.fx.serviceId)
      .execute();
    await db
      .insertInto('visit_numbers')
      .values({
        organization_id: s.fx.orgId,
        visit_date: '2026-03-04',
        letter: 'A',
        last_number: 1,
      })
      .execute();
  }, 60_000);

  /** Rows a rejected request must leave as they were. */
  async function counts(): Promise<string> {
    const { rows } = await sql<Record<string, unknown>>`select
      (select count(*) from bookings) as bookings,
      (select count(*) from payments) as payments,
      (select count(*) from contact_requests) as contact_requests,
      (select count(*) from services) as services,
      (select count(*) from users) as users,
      (select count(*) from organization_closures) as closures,
      (select count(*) from uploads) as uploads,
      (select count(*) from organizations) as organizations,
      (select count(*) from counters) as counters,
      (select count(*) from counter_services) as counter_services,
      (select count(*) from visits) as visits,
      (select count(*) from visit_events) as visit_events,
      (select count(*) from boards) as boards,
      (select count(*) from boards where revoked_at is not null) as revoked_boards,
      (select string_agg(state, ',' order by id) from visits) as visit_states,
      (select string_agg(state, ',' order by id) from counters) as counter_states`.execute(
      s.database.db,
    );
    return JSON.stringify(rows[0]);
  }

  interface Pending {
    id: string;
    reference: string;
  }
  let started = 0;
  /** A pending payment of its own for each callback, so a valid one still has work to do. */
  async function freshPayment(): Promise<Pending> {
    const n = started++;
    const date = new Date(Date.UTC(2026, 2, 10 + Math.floor(n / 40))).toISOString().slice(0, 10);
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(s.fx, {
        slotIndex: n % 40,
        date,
        phone_number: `67713${String(n).padStart(4, '0')}`,
      }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { payment: { payment_id: string } }).payment.payment_id;
    const row = await s.database.db
      .selectFrom('payments')
      .select('provider_reference')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { id, reference: row.provider_reference ?? '' };
  }

  /** A request each route would accept, from which the mutations start. */
  function validInput(route: DeclaredRoute, payment: Pending) {
    const params: Record<string, unknown> = {
      orgId: s.fx.orgId,
      serviceId: s.fx.serviceId,
      paymentId: payment.id,
      // Self-service routes: sent without the booking's key, they must refuse and change nothing.
      bookingId,
      code: 'QL-7K4M-2QAB-XC9D',
      // The queue's ids name the fixture's counter and board, so mutations reach the handlers.
      id: route.url.includes('/queue/counters/') ? counterId : s.fx.orgId,
      boardId,
      organizationId: s.fx.orgId,
      visitId,
      token: 'x'.repeat(43),
      organization_id: s.fx.orgId,
      // Not the service the callbacks' fresh payments book, which a valid edit could close.
      service_id: s.fx.otherServiceId,
      date: '2026-04-20',
      file: 'nope.png',
    };
    const samples: Record<string, unknown> = {
      ...initiateBody(s.fx, { slotIndex: 3, date: '2026-03-06' }),
      user_name: 'Mairie de Douala 1er',
      user_email: 'contact@mairie.cm',
      message: 'Bonjour',
      token: 'not-a-token',
      start: '2026-03-05',
      end: '2026-03-06',
      status: 'SUCCESSFUL',
      reference: payment.reference,
      external_reference: payment.id,
      amount: '2',
      currency: 'XAF',
      operator: 'MTN',
      code: '',
      operator_reference: 'OP1',
      email: 'fuzz@qless.cm',
      password: 'not the password',
      current_password: 'not the password',
      new_password: 'a new long passphrase',
      service_name: 'Fuzzed service',
      service_description: 'Made by the fuzz test',
      duration: 30,
      capacity: 1,
      active: true,
      name: 'Guichet Unique',
      // The fixture's own hours, so a valid edit keeps the callbacks' slots open.
      start_time: '07:00',
      end_time: '18:00',
      open_days: [0, 1, 2, 3, 4, 5, 6],
      time_zone: 'Africa/Douala',
      date: '2026-04-20',
      organization_id: s.fx.orgId,
      items: [],
      key: 'not-the-key-of-any-booking',
      // The queue's requests (issue 19).
      service_ids: [s.fx.serviceId],
      letter: 'Q',
      grace_early_minutes: 30,
      grace_late_minutes: 15,
      notify_position: 3,
      max_recalls: 2,
      join_enabled: true,
      phone: '677 12 34 56',
      locale: 'fr',
      phone_last4: '3456',
    };
    const pick = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, samples[k] ?? 'x']));
    const isCallback = route.url.includes('/payment/callback/');
    const query = isCallback && route.method === 'GET' ? CALLBACK_FIELDS : route.query;
    const body = isCallback && route.method === 'POST' ? CALLBACK_FIELDS : route.body;
    return { params, query, body, pick, isCallback };
  }

  let clients = 0;
  async function send(route: DeclaredRoute, m: Mutation, signed: boolean, payment: Pending) {
    const input = validInput(route, payment);
    // Each request from a client of its own: per-client limits would otherwise hide the rest.
    clients += 1;
    const remoteAddress = `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
    const params = applyEdits(input.params, m.params);
    let query = applyEdits(input.pick(input.query), m.query);
    let body = applyEdits(input.pick(input.body), m.body);
    // A signed callback is the hardest case: it passes the signature check with odd values.
    if (input.isCallback && signed) {
      const fields = route.method === 'GET' ? query : body;
      if (Object.values(fields).every((v) => typeof v === 'string')) {
        const signature = await signSimulatorCallback(
          simulatorKey,
          fields as Record<string, string>,
          s.clock.now(),
        );
        if (route.method === 'GET') query = { ...query, signature };
        else body = { ...body, signature };
      }
    }
    const url = urlOf(route.url, params, query);
    const method = route.method as 'GET' | 'POST' | 'PATCH' | 'DELETE';
    if (method === 'GET' || method === 'DELETE') {
      return { url, res: await s.app.inject({ method, url, remoteAddress, headers: operator }) };
    }
    const { payload, headers } = payloadOf(body, m.form);
    return {
      url,
      res: await s.app.inject({
        method,
        url,
        payload,
        remoteAddress,
        headers: { ...operator, ...(headers ?? {}) },
      }),
    };
  }

  it('finds the routes the app declares', () => {
    const names = routes.map((r) => `${r.method} ${r.url}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/v1/payment/initiate',
        'GET /api/v1/payment/callback/simulator',
        'POST /api/v1/payment/callback/simulator',
        'POST /api/v1/contact',
        'POST /api/v1/tickets/verify',
        'GET /api/v1/service/:serviceId/bookings',
        'GET /api/v1/queue/today',
        'POST /api/v1/queue/counters/:id/call-next',
        'POST /api/v1/join/:organizationId',
        'GET /api/v1/board/:token',
        'GET /api/v1/visits/:visitId',
      ]),
    );
  });

  it('answers every mutated request without a 5xx, a leak, or a change on rejection', async () => {
    const tally: Record<number, number> = {};
    for (const route of routes) {
      // A live session for each route: fuzzing logout (or a password change) ends its own.
      // Checked with /auth/me rather than signing in again each time (argon2: 100 sign-ins
      // cost more CPU than the rest of this file).
      const me = await s.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: operator });
      if (me.statusCode !== 200) operator = bearer(await signIn(s.app, 'fuzz@qless.cm'));
      const initial = { id: paymentId, reference: providerReference };
      const input = validInput(route, initial);
      const arb = fc.tuple(
        mutationFor(route, { query: input.query, body: input.body }),
        fc.boolean(),
      );
      await fc.assert(
        fc.asyncProperty(arb, async ([m, signed]) => {
          const payment = input.isCallback ? await freshPayment() : initial;
          // A route that reads cannot change a row: counted only around the ones that write.
          const before = route.writes ? await counts() : '';
          const { url, res } = await send(route, m, signed, payment);
          tally[res.statusCode] = (tally[res.statusCode] ?? 0) + 1;
          const where = `${route.method} ${url} → ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, where).toBeLessThan(500);
          for (const leak of LEAKS) expect(res.body, where).not.toMatch(leak);
          if (res.statusCode >= 400) {
            expect(errorBodySchema.safeParse(res.json()).success, where).toBe(true);
            // 402 is the provider's refusal, which records the FAILED payment by design.
            if (res.statusCode !== 402 && route.writes) {
              expect(await counts(), where).toBe(before);
            }
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
    console.info(
      `route fuzz on ${s.engine}: ${routes.length} routes, answers ${JSON.stringify(tally)}`,
    );
  }, 240_000);
});
