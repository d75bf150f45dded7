import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { FixedClock } from '../../src/clock.js';
import type { Database, Engine } from '../../src/db/database.js';
import { createCampayProvider } from '../../src/providers/campay.js';
import { type FakeCampay, startFakeCampay } from './campay-fake.js';
import { createFixture, type Fixture } from './fixtures.js';
import { NO_LIMITS } from './payment-helpers.js';
import { createTestApp, PINNED_NOW } from './test-app.js';
import { createTestDatabase, type TestDatabase } from './test-db.js';

export interface CampayAppOptions {
  /** Upper bound of one Campay operation in the adapter. */
  timeoutMs: number;
  env?: Record<string, string>;
  logStream?: { write(line: string): void };
}

/**
 * One app on a fresh database whose provider is the Campay adapter talking to a local fake
 * Campay; the fake signs with the app's pinned clock, so signatures are fresh for the app.
 */
export function useCampayApp(engine: Engine, options: CampayAppOptions) {
  let tdb: TestDatabase;
  let app: FastifyInstance;
  let clock: FixedClock;
  let fake: FakeCampay;
  let fx: Fixture;
  let day = 4;

  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    clock = new FixedClock(PINNED_NOW);
    fake = await startFakeCampay({ now: () => clock.now() });
    const provider = createCampayProvider(
      {
        baseUrl: fake.baseUrl,
        username: 'qless-app',
        password: 'qless-secret',
        webhookKey: fake.webhookKey,
        timeoutMs: options.timeoutMs,
      },
      { now: () => clock.now() },
    );
    ({ app } = await createTestApp(tdb.database, {
      clock,
      provider,
      env: { ...NO_LIMITS, ...options.env },
      ...(options.logStream ? { logStream: options.logStream } : {}),
    }));
    fx = await createFixture(tdb.database, clock.now());
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    await tdb?.cleanup();
  });

  return {
    get app(): FastifyInstance {
      return app;
    },
    get clock(): FixedClock {
      return clock;
    },
    get fake(): FakeCampay {
      return fake;
    },
    get fx(): Fixture {
      return fx;
    },
    get database(): Database {
      return tdb.database;
    },
    /** A date of its own for each test, so tests never share a slot. */
    nextDate: () => `2026-03-${String(++day).padStart(2, '0')}`,
    initiate: (body: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/api/v1/payment/initiate', payload: body }),
  };
}
