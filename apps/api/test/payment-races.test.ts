import { paymentResponseSchema } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import type { PaymentRow } from '../src/db/schema.js';
import type { ProviderEvent } from '../src/providers/provider.js';
import { useStack } from './support/app-fixture.js';
import { initiateBody } from './support/fixtures.js';

const ENV = {
  RATE_LIMIT_INITIATE_PER_IP: '100000',
  RATE_LIMIT_INITIATE_PER_PHONE: '100000',
  SIMULATOR_DELAY_MS: '600000',
};

/** Events for one payment that arrive at once (on PostgreSQL they truly overlap). */
describe('payment events that race', () => {
  const s = useStack({ env: ENV });
  let slotIndex = 20;

  const paymentRow = (id: string) =>
    s.database.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** One number has one pending payment at most: each payment here has its own number. */
  async function pending(): Promise<PaymentRow> {
    const index = slotIndex++;
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(s.fx, {
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
        s.app.payments.stateMachine.applyEvent(success(p), 'callback', {}),
        s.app.payments.stateMachine.applyEvent(success(p), 'status_check', {}),
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
          s.app.payments.stateMachine.failPending(p.id, 'TIMEOUT', record),
          s.app.payments.stateMachine.applyEvent(success(p), 'callback', {}),
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
