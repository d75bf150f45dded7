import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { paymentStatusMessageSchema } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../src/clock.js';
import { type Database, openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createCampayProvider } from '../src/providers/campay.js';
import { signSimulatorCallback } from '../src/providers/simulator.js';
import { type FakeCampay, startFakeCampay } from './support/campay-fake.js';
import { createFixture, type Fixture, initiateBody } from './support/fixtures.js';
import { createTestApp, PINNED_NOW } from './support/test-app.js';
import { createTestDatabase, engines, type TestDatabase } from './support/test-db.js';
import { recordSocket } from './support/ws.js';

const ORIGIN = 'http://qless.test';
const LIMITS = { RATE_LIMIT_INITIATE_PER_IP: '100000', RATE_LIMIT_INITIATE_PER_PHONE: '100000' };

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `127.0.0.1:${address.port}`;
}

async function statusOf(app: FastifyInstance, id: string) {
  return paymentStatusMessageSchema.parse(
    (await app.inject({ method: 'GET', url: `/api/v1/payment/${id}` })).json(),
  );
}

describe.each(engines)('status socket on %s', (engine) => {
  let tdb: TestDatabase;
  let app: FastifyInstance;
  let host: string;
  let fx: Fixture;

  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    ({ app } = await createTestApp(tdb.database, {
      env: { ...LIMITS, SIMULATOR_DELAY_MS: '300' },
    }));
    host = await listen(app);
    fx = await createFixture(tdb.database, new Date(PINNED_NOW));
  });
  afterAll(async () => {
    await app?.close();
    await tdb?.cleanup();
  });

  it('sends the status at once, then SUCCESSFUL with the ticket, then closes', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(fx),
    });
    const id = res.json().payment.payment_id as string;
    const rec = await recordSocket(`ws://${host}/api/v1/payment/${id}/statusSocket`, ORIGIN);
    expect(rec.messages[0]).toMatchObject({
      status: 'PENDING',
      booking_id: expect.any(String),
      ticket: null,
    });
    const last = paymentStatusMessageSchema.parse(rec.messages.at(-1));
    expect(last.status).toBe('SUCCESSFUL');
    expect(last.ticket?.customer_name).toBe('Ngono Marie');
    expect(rec.closeCode).toBe(1000);
    // A socket opened after the end gets the final status once and closes.
    const after = await recordSocket(`ws://${host}/api/v1/payment/${id}/statusSocket`, ORIGIN);
    expect(after.messages).toHaveLength(1);
    expect(after.messages[0]).toMatchObject({ status: 'SUCCESSFUL' });
  });

  it('sends FAILED for the simulator decline number', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(fx, { slotIndex: 1, phone_number: '699000000' }),
    });
    const id = res.json().payment.payment_id as string;
    const rec = await recordSocket(`ws://${host}/api/v1/payment/${id}/statusSocket`, ORIGIN);
    expect(rec.messages.at(-1)).toMatchObject({ status: 'FAILED', ticket: null });
  });

  it('closes with an error for an unknown or malformed id', async () => {
    const unknown = await recordSocket(
      `ws://${host}/api/v1/payment/00000000-0000-4000-8000-000000000000/statusSocket`,
      ORIGIN,
    );
    expect(unknown.messages).toEqual([
      { error: { code: 'PAYMENT_NOT_FOUND', message: expect.any(String) } },
    ]);
    expect(unknown.closeCode).toBe(4404);
    const bad = await recordSocket(`ws://${host}/api/v1/payment/nope/statusSocket`, ORIGIN);
    expect(bad.messages[0]).toMatchObject({ error: { code: 'INVALID_ID' } });
  });

  it('refuses a socket from another origin', async () => {
    await expect(
      recordSocket(
        `ws://${host}/api/v1/payment/00000000-0000-4000-8000-000000000000/statusSocket`,
        'https://evil.example',
      ),
    ).rejects.toThrow('HTTP 403');
  });
});

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
      {
        arrange: () => fake.queueResponse('collect', { status: 503, body: { message: 'down' } }),
        status: 502,
        code: 'PROVIDER_UNAVAILABLE',
      },
      { arrange: () => fake.hangNext('collect'), status: 502, code: 'PROVIDER_UNAVAILABLE' },
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
});

describe.each(engines)('restart in the middle of a payment on %s', (engine) => {
  let dataDir: string | null = null;
  let tdb: TestDatabase | null = null;
  afterAll(async () => {
    await tdb?.cleanup();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('loses nothing: the next process settles the payment', async () => {
    let database: Database;
    const reopen = async () => {
      if (engine === 'pglite') {
        const db = await openDatabase({ databaseUrl: null, dataDir: dataDir as string });
        await migrateToLatest(db.db);
        return db;
      }
      return openDatabase({ databaseUrl: tdb?.url as string, dataDir: null });
    };
    if (engine === 'pglite') {
      dataDir = await mkdtemp(path.join(tmpdir(), 'qless-restart-'));
      database = await reopen();
    } else {
      tdb = await createTestDatabase(engine);
      database = tdb.database;
    }
    const clock = new FixedClock(PINNED_NOW);
    const first = await createTestApp(database, {
      clock,
      env: { ...LIMITS, SIMULATOR_DELAY_MS: '5000' },
    });
    const fx = await createFixture(database, clock.now());
    const res = await first.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(fx),
    });
    const id = res.json().payment.payment_id as string;
    // The process stops before the provider's answer arrives.
    await first.app.close();
    if (engine === 'pglite') await database.close();

    const database2 = engine === 'pglite' ? await reopen() : database;
    clock.advance(30_000);
    const second = await createTestApp(database2, { clock, env: LIMITS });
    try {
      expect((await statusOf(second.app, id)).status).toBe('PENDING');
      await second.app.payments.reconciler.sweep();
      const after = await statusOf(second.app, id);
      expect(after.status).toBe('SUCCESSFUL');
      expect(after.ticket).not.toBeNull();
    } finally {
      await second.app.close();
      if (engine === 'pglite') await database2.close();
    }
  });
});

describe('two server processes on one PostgreSQL', () => {
  let tdb: TestDatabase;
  let other: Database;
  let appA: FastifyInstance;
  let appB: FastifyInstance;
  let hostB: string;

  beforeAll(async () => {
    tdb = await createTestDatabase('postgres');
    other = await openDatabase({ databaseUrl: tdb.url, dataDir: null });
    // Long simulator delay: only the explicit callback to A settles the payment.
    ({ app: appA } = await createTestApp(tdb.database, {
      env: { ...LIMITS, SIMULATOR_DELAY_MS: '600000' },
    }));
    ({ app: appB } = await createTestApp(other, {
      env: { ...LIMITS, SIMULATOR_DELAY_MS: '600000' },
    }));
    hostB = await listen(appB);
  });
  afterAll(async () => {
    await appA?.close();
    await appB?.close();
    await other?.close();
    await tdb?.cleanup();
  });

  it('a callback received by A reaches the socket held by B', async () => {
    const fx = await createFixture(tdb.database, new Date(PINNED_NOW));
    const res = await appA.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(fx),
    });
    const id = res.json().payment.payment_id as string;
    let subscribed!: () => void;
    const firstMessage = new Promise<void>((resolve) => {
      subscribed = resolve;
    });
    const recording = recordSocket(`ws://${hostB}/api/v1/payment/${id}/statusSocket`, ORIGIN, {
      onMessage: () => subscribed(),
    });
    // B has answered with the current status, so its socket is subscribed.
    await firstMessage;
    const payment = await tdb.database.db
      .selectFrom('payments')
      .select('provider_reference')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const key = await tdb.database.db
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', 'simulator_signing_key')
      .executeTakeFirstOrThrow();
    const fields = {
      status: 'SUCCESSFUL',
      reference: payment.provider_reference ?? '',
      external_reference: id,
      amount: '2',
      currency: 'XAF',
    };
    const signature = await signSimulatorCallback(key.value, fields);
    const cb = await appA.inject({
      method: 'POST',
      url: '/api/v1/payment/callback/simulator',
      payload: { ...fields, signature },
    });
    expect(cb.json()).toMatchObject({ outcome: 'confirmed' });
    const rec = await recording;
    expect(rec.messages[0]).toMatchObject({ status: 'PENDING' });
    expect(rec.messages.at(-1)).toMatchObject({
      status: 'SUCCESSFUL',
      ticket: { customer_name: 'Ngono Marie' },
    });
  });

  it('two reconcilers sweeping at once check each payment once', async () => {
    const clock = new FixedClock(PINNED_NOW);
    const env = { ...LIMITS, SIMULATOR_DELAY_MS: '1000' };
    const first = await createTestApp(tdb.database, { clock, env });
    const fx = await createFixture(tdb.database, clock.now(), '-sweep');
    const ids: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const res = await first.app.inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        payload: initiateBody(fx, { slotIndex: i, date: '2026-03-06' }),
      });
      ids.push(res.json().payment.payment_id as string);
    }
    // Closing stops the simulator's own settle timers: only the sweeps may settle these.
    await first.app.close();
    const a = await createTestApp(tdb.database, { clock, env });
    const b = await createTestApp(other, { clock, env });
    try {
      clock.advance(60_000);
      const [ra, rb] = await Promise.all([
        a.app.payments.reconciler.sweep(),
        b.app.payments.reconciler.sweep(),
      ]);
      expect(ra.checked + rb.checked).toBe(10);
      for (const id of ids) expect((await statusOf(b.app, id)).status).toBe('SUCCESSFUL');
      const events = await tdb.database.db
        .selectFrom('payment_events')
        .select(['payment_id', 'outcome'])
        .where('payment_id', 'in', ids)
        .execute();
      expect(events.filter((e) => e.outcome === 'confirmed')).toHaveLength(10);
      expect(events).toHaveLength(10);
    } finally {
      await a.app.close();
      await b.app.close();
    }
  });
});

describe('rate limits on payment initiation', () => {
  let tdb: TestDatabase;
  let app: FastifyInstance;
  let fx: Fixture;
  beforeAll(async () => {
    tdb = await createTestDatabase('pglite');
    ({ app } = await createTestApp(tdb.database, {
      env: {
        RATE_LIMIT_INITIATE_PER_IP: '4',
        RATE_LIMIT_INITIATE_PER_PHONE: '2',
        SIMULATOR_DELAY_MS: '600000',
      },
    }));
    fx = await createFixture(tdb.database, new Date(PINNED_NOW));
  });
  afterAll(async () => {
    await app?.close();
    await tdb?.cleanup();
  });

  it('holds the per-phone limit under a burst', async () => {
    const burstApp = (
      await createTestApp(tdb.database, {
        env: {
          RATE_LIMIT_INITIATE_PER_IP: '1000',
          RATE_LIMIT_INITIATE_PER_PHONE: '2',
          SIMULATOR_DELAY_MS: '600000',
        },
      })
    ).app;
    try {
      const codes = await Promise.all(
        [20, 21, 22, 23, 24, 25].map(
          async (slotIndex) =>
            (
              await burstApp.inject({
                method: 'POST',
                url: '/api/v1/payment/initiate',
                payload: initiateBody(fx, { slotIndex, phone_number: '677999888' }),
              })
            ).statusCode,
        ),
      );
      expect(codes.filter((c) => c === 201)).toHaveLength(2);
      expect(codes.filter((c) => c === 429)).toHaveLength(4);
    } finally {
      await burstApp.close();
    }
  });

  it('limits per phone number, then per IP, with 429 RATE_LIMITED', async () => {
    const send = (slotIndex: number, phone: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        payload: initiateBody(fx, { slotIndex, phone_number: phone }),
      });
    expect((await send(1, '677111111')).statusCode).toBe(201);
    expect((await send(2, '677111111')).statusCode).toBe(201);
    const third = await send(3, '677111111');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await send(4, '677222222')).statusCode).toBe(201);
    const overIp = await send(5, '677333333');
    expect(overIp.statusCode).toBe(429);
    expect(overIp.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
