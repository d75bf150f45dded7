import type { FastifyInstance } from 'fastify';
import type { FixedClock } from '../../src/core/clock.js';
import type { Database } from '../../src/db/database.js';
import { createCampayProvider } from '../../src/providers/campay.js';
import { useStack } from './app-fixture.js';
import { type FakeCampay, startFakeCampay } from './campay-fake.js';
import type { Fixture } from './fixtures.js';
import { NO_LIMITS } from './payment-helpers.js';

export interface CampayAppOptions {
  /** Upper bound of one Campay operation in the adapter. */
  timeoutMs: number;
  env?: Record<string, string>;
  logStream?: { write(line: string): void };
}

/**
 * The stack (app-fixture.ts) whose provider is the Campay adapter talking to a local fake
 * Campay; the fake signs with the app's pinned clock, so signatures are fresh for the app.
 */
export function useCampayApp(options: CampayAppOptions) {
  let fake: FakeCampay;
  const stack = useStack(() => ({
    env: { ...NO_LIMITS, ...options.env },
    ...(options.logStream ? { logStream: options.logStream } : {}),
    provider: async (clock) => {
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
      return { provider, close: () => fake.close() };
    },
  }));
  let day = 4;

  return {
    get app(): FastifyInstance {
      return stack.app;
    },
    get clock(): FixedClock {
      return stack.clock;
    },
    get fake(): FakeCampay {
      return fake;
    },
    get fx(): Fixture {
      return stack.fx;
    },
    get database(): Database {
      return stack.database;
    },
    /** A date of its own for each test, so tests never share a slot. */
    nextDate: () => `2026-03-${String(++day).padStart(2, '0')}`,
    initiate: (body: Record<string, unknown>) =>
      stack.app.inject({ method: 'POST', url: '/api/v1/payment/initiate', payload: body }),
  };
}
