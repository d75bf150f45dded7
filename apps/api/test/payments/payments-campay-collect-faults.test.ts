import { describe, expect, it } from 'vitest';
import { useCampayApp } from '../support/campay-app-harness.js';
import type { FakeCampay } from '../support/campay-fake.js';
import { initiateBody } from '../support/fixtures.js';
import { statusOf } from '../support/payment-helpers.js';

/** Ways Campay's collect goes wrong; `reached` says whether Campay recorded the transaction. */
const FAULTS: { name: string; reached: boolean; arrange: (fake: FakeCampay) => void }[] = [
  { name: 'slow (no answer in time)', reached: false, arrange: (f) => f.hangNext('collect') },
  {
    name: 'answer lost after Campay recorded it',
    reached: true,
    arrange: (f) => f.loseNextCollectAnswer(),
  },
  {
    name: '503',
    reached: false,
    arrange: (f) => f.queueResponse('collect', { status: 503, body: { message: 'down' } }),
  },
  {
    name: '500 with an HTML page',
    reached: false,
    arrange: (f) => f.queueResponse('collect', { status: 500, body: '<html>Server Error</html>' }),
  },
  {
    name: '200 with garbage',
    reached: false,
    arrange: (f) => f.queueResponse('collect', { status: 200, body: 'not json {' }),
  },
  {
    name: '200 without a reference',
    reached: false,
    arrange: (f) => f.queueResponse('collect', { status: 200, body: { ussd_code: '*126#' } }),
  },
];

describe('Campay collect slow, failing or garbled', () => {
  const h = useCampayApp({ timeoutMs: 1500 });

  /** No hold without a pending payment, and no pending payment without its hold. */
  async function expectHoldsMatchPayments() {
    const rows = await h.database.db
      .selectFrom('payments')
      .innerJoin('bookings', 'bookings.id', 'payments.booking_id')
      .select(['payments.id', 'payments.status as payment', 'bookings.status as booking'])
      .execute();
    for (const row of rows) {
      if (row.payment === 'PENDING') expect(row.booking, row.id).toBe('held');
      if (row.booking === 'held') expect(row.payment, row.id).toBe('PENDING');
    }
    const orphans = await h.database.db
      .selectFrom('bookings')
      .leftJoin('payments', 'payments.booking_id', 'bookings.id')
      .select('bookings.id')
      .where('bookings.status', '=', 'held')
      .where('payments.id', 'is', null)
      .execute();
    expect(orphans).toEqual([]);
  }

  const taken = async (date: string) =>
    (
      (
        await h.app.inject({
          method: 'GET',
          url: `/api/v1/service/${h.fx.serviceId}/bookings?start=${date}&end=${date}`,
        })
      ).json() as { bookings: unknown[] }
    ).bookings;

  // The design keeps an uncertain collect PENDING with its hold (the payer may have been
  // asked); the reconciler then confirms it, or marks it FAILED for review and frees the slot.
  it.each(FAULTS.map((f, i) => ({ ...f, i })))(
    'collect $name: pending with the hold kept, then settled by the reconciler',
    async ({ reached, arrange, i }) => {
      const date = `2026-03-${String(5 + i).padStart(2, '0')}`;
      arrange(h.fake);
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        payload: initiateBody(h.fx, { date, phone_number: `67712301${i}` }),
      });
      expect(res.statusCode, res.body).toBe(201);
      const paymentId = res.json().payment.payment_id as string;
      expect((await statusOf(h.app, paymentId)).status).toBe('PENDING');
      expect(await taken(date)).toHaveLength(1);
      await expectHoldsMatchPayments();

      const tx = h.fake.findByExternalReference(paymentId);
      expect(Boolean(tx)).toBe(reached);
      if (tx) h.fake.settle(tx.reference, 'SUCCESSFUL'); // the payer approves on the phone
      h.clock.advance(30_000);
      await h.app.payments.reconciler.sweep();
      await expectHoldsMatchPayments();
      if (reached) {
        const settled = await statusOf(h.app, paymentId);
        expect(settled.status).toBe('SUCCESSFUL');
        expect(settled.ticket).not.toBeNull();
        return;
      }
      // Campay never heard of it: pending (hold lapsing) until the limit, then FAILED for review.
      expect((await statusOf(h.app, paymentId)).status).toBe('PENDING');
      h.clock.advance(31 * 60_000);
      await h.app.payments.reconciler.sweep();
      await expectHoldsMatchPayments();
      const row = await h.database.db
        .selectFrom('payments')
        .select(['status', 'needs_review', 'failure_code', 'needs_refund'])
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        status: 'FAILED',
        needs_review: true,
        failure_code: 'OUTCOME_UNKNOWN',
        needs_refund: false,
      });
      expect(await taken(date)).toEqual([]);
    },
  );
});
