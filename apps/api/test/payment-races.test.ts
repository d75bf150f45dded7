import { paymentResponseSchema } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import type { PaymentRow } from '../src/db/schema.js';
import type { ProviderEvent } from '../src/providers/provider.js';
import { createFixture, type Fixture, initiateBody } from './support/fixtures.js';
import { createTestApp } from './support/test-app.js';
import { createTestDatabase, engines, type TestDatabase } from './support/test-db.js';

const ENV = {
  RATE_LIMIT_INITIATE_PER_IP: '100000',
  RATE_LIMIT_INITIATE_PER_PHONE: '100000',
  SIMULATOR_DELAY_MS: '600000',
};

/** Events for one payment that arrive at once (on PostgreSQL they truly overlap). */
describe.each(engines)('payment events that race on %s', (engine) => {
  let tdb: TestDatabase;
  let database: Database;
  let app: FastifyInstance;
  let fx: Fixture;
  let slotIndex = 20;

  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    database = tdb.database;
    ({ app } = await createTestApp(database, { env: ENV }));
    fx = await createFixture(database, new Date('2026-03-04T08:30:00Z'));
  });

  afterAll(async () => {
    await app?.close();
    await tdb?.cleanup();
  });

  const paymentRow = (id: string) =>
    database.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** One number has one pending payment at most: each payment here has its own number. */
  async function pending(): Promise<PaymentRow> {
    const index = slotIndex++;
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(fx, {
        date: '2026-03-06',
        slotIndex: index,
        phone_number: `6771${String(index).padStart(5, '0')}`,
      }),
    });
    expect(res.statusCode).toBe(201);
    return paymentRow(paymentResponseSchema.parse(res.json()).payment.payment_id);
  }

  const success = (p: PaymentRow): ProviderEvent => ({
    providerReference: p.provider_reference,
    paymentId: p.id,
    status: 'SUCCESSFUL',
    amount: 2,
    currency: 'XAF',
    operator: 'MTN',
    operatorReference: 'OP-1',
    code: null,
  });

  it('a callback and a status check at once settle the payment once', async () => {
    const payments = await Promise.all([pending(), pending(), pending()]);
    const outcomes = await Promise.all(
      payments.flatMap((p) => [
        app.payments.stateMachine.applyEvent(success(p), 'callback', {}),
        app.payments.stateMachine.applyEvent(success(p), 'status_check', {}),
      ]),
    );
    for (let i = 0; i < payments.length; i += 1) {
      expect([outcomes[2 * i], outcomes[2 * i + 1]].sort()).toEqual(['confirmed', 'duplicate']);
    }
    for (const p of payments) {
      expect(await paymentRow(p.id)).toMatchObject({ status: 'SUCCESSFUL', needs_refund: false });
    }
  });

  it('giving up while the success arrives: one of the two wins, never both', async () => {
    const payments = await Promise.all([pending(), pending(), pending()]);
    const record = { source: 'expiry', outcome: 'expired', payload: {} } as const;
    const results = await Promise.all(
      payments.map((p) =>
        Promise.all([
          app.payments.stateMachine.failPending(p.id, 'TIMEOUT', record),
          app.payments.stateMachine.applyEvent(success(p), 'callback', {}),
        ]),
      ),
    );
    for (const [i, [failed, outcome]] of results.entries()) {
      const row = await paymentRow(payments[i]?.id ?? '');
      if (failed) {
        expect(outcome).toBe('refund_due');
        expect(row).toMatchObject({ status: 'FAILED', refund_reason: 'PAID_AFTER_FAILURE' });
      } else {
        expect(outcome).toBe('confirmed');
        expect(row).toMatchObject({ status: 'SUCCESSFUL', needs_refund: false });
      }
    }
  });
});
