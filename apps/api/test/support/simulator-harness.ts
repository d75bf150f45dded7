import { paymentStatusMessageSchema } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import type { FixedClock } from '../../src/core/clock.js';
import type { Database } from '../../src/db/database.js';
import { signSimulatorCallback } from '../../src/providers/simulator.js';
import { useStack } from './app-fixture.js';
import type { Fixture } from './fixtures.js';
import { NO_LIMITS } from './payment-helpers.js';

/**
 * The stack (app-fixture.ts) with the simulator (which never settles by itself here: the
 * tests send its signed callbacks), a fixture organization, and the calls tests make.
 */
export function useSimulatorApp(
  options: { env?: Record<string, string>; logStream?: { write(line: string): void } } = {},
) {
  const stack = useStack(() => ({
    env: { ...NO_LIMITS, SIMULATOR_DELAY_MS: '60000', ...options.env },
    ...(options.logStream ? { logStream: options.logStream } : {}),
  }));
  /** Each test books its own day so tests never share a slot. */
  let day = 4;
  const harness = {
    get app(): FastifyInstance {
      return stack.app;
    },
    get database(): Database {
      return stack.database;
    },
    /** The PostgreSQL database's URL (null on PGlite), for a second process's connections. */
    get url(): string | null {
      return stack.url;
    },
    get clock(): FixedClock {
      return stack.clock;
    },
    get fx(): Fixture {
      return stack.fx;
    },
    nextDate(): string {
      day += 1;
      return `2026-03-${String(day).padStart(2, '0')}`;
    },
    initiate: (body: Record<string, unknown>) =>
      stack.app.inject({ method: 'POST', url: '/api/v1/payment/initiate', payload: body }),
    status: async (id: string) =>
      paymentStatusMessageSchema.parse(
        (await stack.app.inject({ method: 'GET', url: `/api/v1/payment/${id}` })).json(),
      ),
    /** Slot ids of the fixture service that are full on `date`. */
    taken: async (date: string): Promise<string[]> => {
      const res = await stack.app.inject({
        method: 'GET',
        url: `/api/v1/service/${stack.fx.serviceId}/bookings?start=${date}&end=${date}`,
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
      const db = stack.database.db;
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
      const sig = signature ?? (await signSimulatorCallback(key.value, fields, stack.clock.now()));
      return stack.app.inject({
        method: 'GET',
        url: `/api/v1/payment/callback/simulator?${new URLSearchParams({ ...fields, signature: sig })}`,
      });
    },
  };
  return harness;
}
