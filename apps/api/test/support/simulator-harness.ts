import { paymentStatusMessageSchema } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { FixedClock } from '../../src/clock.js';
import type { Database, Engine } from '../../src/db/database.js';
import { signSimulatorCallback } from '../../src/providers/simulator.js';
import { createFixture, type Fixture } from './fixtures.js';
import { NO_LIMITS } from './payment-helpers.js';
import { createTestApp } from './test-app.js';
import { createTestDatabase, type TestDatabase } from './test-db.js';

/**
 * One app on a fresh database with the simulator (which never settles by itself here: the
 * tests send its signed callbacks), a fixture organization, and the calls tests make.
 */
export function useSimulatorApp(
  engine: Engine,
  options: { env?: Record<string, string>; logStream?: { write(line: string): void } } = {},
) {
  let tdb: TestDatabase;
  let app: FastifyInstance;
  let clock: FixedClock;
  let fx: Fixture;
  /** Each test books its own day so tests never share a slot. */
  let day = 4;

  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    ({ app, clock } = await createTestApp(tdb.database, {
      env: { ...NO_LIMITS, SIMULATOR_DELAY_MS: '60000', ...options.env },
      ...(options.logStream ? { logStream: options.logStream } : {}),
    }));
    fx = await createFixture(tdb.database, clock.now());
  });

  afterAll(async () => {
    await app?.close();
    await tdb?.cleanup();
  });

  const harness = {
    get app(): FastifyInstance {
      return app;
    },
    get database(): Database {
      return tdb.database;
    },
    /** The PostgreSQL database's URL (null on PGlite), for a second process's connections. */
    get url(): string | null {
      return tdb.url;
    },
    get clock(): FixedClock {
      return clock;
    },
    get fx(): Fixture {
      return fx;
    },
    nextDate(): string {
      day += 1;
      return `2026-03-${String(day).padStart(2, '0')}`;
    },
    initiate: (body: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/api/v1/payment/initiate', payload: body }),
    status: async (id: string) =>
      paymentStatusMessageSchema.parse(
        (await app.inject({ method: 'GET', url: `/api/v1/payment/${id}` })).json(),
      ),
    /** Slot ids of the fixture service that are full on `date`. */
    taken: async (date: string): Promise<string[]> => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/v1/service/${fx.serviceId}/bookings?start=${date}&end=${date}`,
      });
      return (res.json() as { bookings: { slot_id: string }[] }).bookings.map((b) => b.slot_id);
    },
    /** The simulator's callback for a payment, signed with its key unless `signature` is given. */
    async callback(
      paymentId: string,
      status: string,
      extra: Record<string, string> = {},
      signature?: string,
    ) {
      const db = tdb.database.db;
      const payment = await db
        .selectFrom('payments')
        .select(['provider_reference'])
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      const fields: Record<string, string> = {
        status,
        reference: payment.provider_reference ?? '',
        external_reference: paymentId,
        amount: '2',
        currency: 'XAF',
        operator: 'MTN',
        code: '',
        operator_reference: 'OP1',
        ...extra,
      };
      const key = await db
        .selectFrom('app_secrets')
        .select('value')
        .where('name', '=', 'simulator_signing_key')
        .executeTakeFirstOrThrow();
      const sig = signature ?? (await signSimulatorCallback(key.value, fields));
      return app.inject({
        method: 'GET',
        url: `/api/v1/payment/callback/simulator?${new URLSearchParams({ ...fields, signature: sig })}`,
      });
    },
  };
  return harness;
}
