import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../src/clock.js';
import { createCampayProvider } from '../src/providers/campay.js';
import { type FakeCampay, startFakeCampay } from './support/campay-fake.js';
import { createFixture, type Fixture, initiateBody } from './support/fixtures.js';
import { NO_LIMITS as LIMITS, statusOf } from './support/payment-helpers.js';
import { createTestApp, PINNED_NOW } from './support/test-app.js';
import { createTestDatabase, engines, type TestDatabase } from './support/test-db.js';

describe.each(engines)('Campay provider against a fake Campay server on %s', (engine) => {
  let tdb: TestDatabase;
  let app: FastifyInstance;
  let clock: FixedClock;
  let fake: FakeCampay;
  let fx: Fixture;
  let day = 4;
  const nextDate = () => `2026-03-${String(++day).padStart(2, '0')}`;

  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    clock = new FixedClock(PINNED_NOW);
    // The fake signs callbacks with iat/nbf from its clock: give it the server's pinned clock.
    fake = await startFakeCampay({ now: () => clock.now() });
    const provider = createCampayProvider(
      {
        baseUrl: fake.baseUrl,
        username: 'qless-app',
        password: 'qless-secret',
        webhookKey: fake.webhookKey,
        timeoutMs: 400,
      },
      { now: () => clock.now() },
    );
    ({ app } = await createTestApp(tdb.database, { clock, provider, env: LIMITS }));
    fx = await createFixture(tdb.database, clock.now());
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    await tdb?.cleanup();
  });

  const initiate = (body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/v1/payment/initiate', payload: body });
  const taken = async (date: string) =>
    (
      (
        await app.inject({
          method: 'GET',
          url: `/api/v1/service/${fx.serviceId}/bookings?start=${date}&end=${date}`,
        })
      ).json() as { bookings: unknown[] }
    ).bookings;

  it('collects with Campay and confirms on its signed callback (GET and POST)', async () => {
    for (const delivery of ['GET', 'POST'] as const) {
      const res = await initiate(initiateBody(fx, { date: nextDate() }));
      expect(res.statusCode).toBe(201);
      const { payment } = res.json();
      expect(payment).toMatchObject({ provider: 'campay', ussd_code: expect.any(String) });
      const tx = fake.findByExternalReference(payment.payment_id);
      expect(tx).toMatchObject({ from: '237677123456', amount: '2', currency: 'XAF' });
      fake.settle(tx?.reference as string, 'SUCCESSFUL');
      const fields = await fake.callbackFields(tx?.reference as string);
      const cb =
        delivery === 'GET'
          ? await app.inject({
              method: 'GET',
              url: `/api/v1/payment/callback/campay?${new URLSearchParams(fields)}`,
            })
          : await app.inject({
              method: 'POST',
              url: '/api/v1/payment/callback/campay',
              payload: fields,
            });
      expect(cb.statusCode).toBe(200);
      expect((await statusOf(app, payment.payment_id)).status).toBe('SUCCESSFUL');
    }
  });

  it('rejects a callback signed with another key, and trusts Campay over a tampered status', async () => {
    const { payment } = (await initiate(initiateBody(fx, { date: nextDate() }))).json();
    const tx = fake.findByExternalReference(payment.payment_id);
    const ref = tx?.reference as string;
    const forged = await fake.callbackFields(ref, { key: 'attacker-key-attacker-key' });
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/campay?${new URLSearchParams({ ...forged, status: 'SUCCESSFUL' })}`,
    });
    expect(res.statusCode).toBe(401);
    // A genuine signature on fields that claim success, while Campay says it failed.
    fake.settle(ref, 'FAILED');
    const genuine = await fake.callbackFields(ref);
    await app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/campay?${new URLSearchParams({ ...genuine, status: 'SUCCESSFUL' })}`,
    });
    expect((await statusOf(app, payment.payment_id)).status).toBe('FAILED');
  });

  it('does not apply a final status it cannot confirm with Campay', async () => {
    const { payment } = (await initiate(initiateBody(fx, { date: nextDate() }))).json();
    const tx = fake.findByExternalReference(payment.payment_id);
    fake.settle(tx?.reference as string, 'SUCCESSFUL');
    const fields = await fake.callbackFields(tx?.reference as string);
    fake.queueResponse('transaction', { status: 500, body: {} });
    const down = await app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/campay?${new URLSearchParams(fields)}`,
    });
    expect(down.statusCode).toBe(503);
    expect((await statusOf(app, payment.payment_id)).status).toBe('PENDING');
    // Without its reference, the callback is checked against the transaction we recorded.
    const { reference: _dropped, ...noReference } = fields;
    const ok = await app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/campay?${new URLSearchParams(noReference)}`,
    });
    expect(ok.statusCode).toBe(200);
    expect((await statusOf(app, payment.payment_id)).status).toBe('SUCCESSFUL');
  });

  it('recovers a lost callback through the reconciler', async () => {
    const { payment } = (await initiate(initiateBody(fx, { date: nextDate() }))).json();
    fake.settle(
      fake.findByExternalReference(payment.payment_id)?.reference as string,
      'SUCCESSFUL',
    );
    // No callback arrives. Too early for the reconciler: nothing happens.
    await app.payments.reconciler.sweep();
    expect((await statusOf(app, payment.payment_id)).status).toBe('PENDING');
    clock.advance(25_000);
    const swept = await app.payments.reconciler.sweep();
    expect(swept.checked).toBeGreaterThanOrEqual(1);
    expect((await statusOf(app, payment.payment_id)).status).toBe('SUCCESSFUL');
  });

  it('a provider refusal fails the payment and frees the slot at once', async () => {
    const cases = [
      {
        arrange: () => fake.setNextCollectError({ errorCode: 'ER101' }),
        status: 400,
        code: 'INVALID_PHONE',
      },
      {
        arrange: () => fake.setNextCollectError({ errorCode: 'ER301' }),
        status: 402,
        code: 'PAYMENT_DECLINED',
      },
    ];
    for (const c of cases) {
      const date = nextDate();
      c.arrange();
      const res = await initiate(initiateBody(fx, { date }));
      expect(res.statusCode, c.code).toBe(c.status);
      expect(res.json()).toMatchObject({ code: c.code, message: expect.any(String) });
      expect(res.body).not.toMatch(/ER\d{3}|down/);
      expect(await taken(date)).toEqual([]);
      expect((await initiate(initiateBody(fx, { date }))).statusCode).toBe(201);
    }
  });

  it('a collect that may have reached the payer (5xx, no answer) keeps the payment pending', async () => {
    const cases = [
      () => fake.queueResponse('collect', { status: 503, body: { message: 'down' } }),
      () => fake.hangNext('collect'),
    ];
    for (const arrange of cases) {
      const date = nextDate();
      arrange();
      const res = await initiate(initiateBody(fx, { date }));
      expect(res.statusCode).toBe(201);
      const { payment } = res.json();
      expect(payment).toMatchObject({ status: 'PENDING', ussd_code: null });
      expect(await taken(date)).toHaveLength(1);
      const events = await tdb.database.db
        .selectFrom('payment_events')
        .select('outcome')
        .where('payment_id', '=', payment.payment_id)
        .execute();
      expect(events.map((e) => e.outcome)).toEqual(['collect_uncertain']);
    }
  });
});
