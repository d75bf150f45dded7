import { paymentStatusMessageSchema } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.js';

/** The public origin the test apps are configured with (sockets check it). */
export const ORIGIN = 'http://qless.test';

/** Limits high enough that only the tests about limits ever meet them. */
export const NO_LIMITS = {
  RATE_LIMIT_INITIATE_PER_IP: '100000',
  RATE_LIMIT_INITIATE_PER_PHONE: '100000',
  PAYMENT_PROMPTS_PER_PHONE: '100000',
  HOLDS_PER_IP: '100000',
  HOLDS_PER_IP_PER_SERVICE: '100000',
};

/** Listens on a free loopback port; returns "127.0.0.1:port". */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `127.0.0.1:${address.port}`;
}

export async function statusOf(app: FastifyInstance, id: string) {
  return paymentStatusMessageSchema.parse(
    (await app.inject({ method: 'GET', url: `/api/v1/payment/${id}` })).json(),
  );
}

/**
 * The fields of a simulator callback saying `paymentId` succeeded, and the key that signs
 * them (sign with signSimulatorCallback at the time the test wants).
 */
export async function simulatorSuccessFields(
  db: Kysely<DB>,
  paymentId: string,
): Promise<{ fields: Record<string, string>; key: string }> {
  const payment = await db
    .selectFrom('payments')
    .select('provider_reference')
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow();
  const key = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', 'simulator_signing_key')
    .executeTakeFirstOrThrow();
  const fields = {
    status: 'SUCCESSFUL',
    reference: payment.provider_reference ?? '',
    external_reference: paymentId,
    amount: '2',
    currency: 'XAF',
  };
  return { fields, key: key.value };
}
