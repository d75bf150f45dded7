import { addDays, paymentResponseSchema } from '@qless/contract';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PaymentRow } from '../../src/db/schema.js';
import { PAYMENT_CHANNEL } from '../../src/modules/payments/payment-events.js';
import type { PaymentStateMachine } from '../../src/modules/payments/payment-state-machine.js';
import type { ProviderEvent } from '../../src/providers/provider.js';
import { useStack } from '../support/app-fixture.js';
import { initiateBody } from '../support/fixtures.js';

const ENV = {
  RATE_LIMIT_INITIATE_PER_IP: '100000',
  RATE_LIMIT_INITIATE_PER_PHONE: '100000',
  // Most payments here are for one number.
  PAYMENT_PROMPTS_PER_PHONE: '100000',
  // The simulator never settles by itself during a test: only the events sent here do.
  SIMULATOR_DELAY_MS: '600000',
};
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('payment state machine', () => {
  const s = useStack({ env: ENV });
  let machine: PaymentStateMachine;
  /** Each payment books its own day so payments never share a slot-date. */
  let day = 0;

  beforeAll(() => {
    machine = s.app.payments.stateMachine;
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  const paymentRow = (id: string) =>
    s.database.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const bookingOf = (p: PaymentRow) =>
    s.database.db
      .selectFrom('bookings')
      .selectAll()
      .where('id', '=', p.booking_id)
      .executeTakeFirstOrThrow();
  const eventsOf = (paymentId: string | null) =>
    s.database.db
      .selectFrom('payment_events')
      .selectAll()
      .where((eb) =>
        paymentId === null ? eb('payment_id', 'is', null) : eb('payment_id', '=', paymentId),
      )
      .execute();

  /** A PENDING payment on a date of its own (one number has one pending payment at most). */
  async function pending(
    date = addDays('2026-03-05', day++),
    phone = '677123456',
  ): Promise<PaymentRow> {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(s.fx, { date, slotIndex: 5, phone_number: phone }),
    });
    expect(res.statusCode).toBe(201);
    const row = await paymentRow(paymentResponseSchema.parse(res.json()).payment.payment_id);
    expect(row.status).toBe('PENDING');
    return row;
  }

  const event = (p: PaymentRow, fields: Partial<ProviderEvent> = {}): ProviderEvent => ({
    providerReference: p.provider_reference,
    paymentId: p.id,
    status: 'SUCCESSFUL',
    amount: 2,
    currency: 'XAF',
    operator: 'MTN',
    operatorReference: 'OP-1',
    code: null,
    ...fields,
  });

  describe('applyEvent', () => {
    it('confirms a held booking on success and records the event', async () => {
      const p = await pending();
      const raw = { status: 'SUCCESSFUL', n: 1 };
      expect(await machine.applyEvent(event(p), 'callback', raw)).toBe('confirmed');
      expect(await paymentRow(p.id)).toMatchObject({
        status: 'SUCCESSFUL',
        failure_code: null,
        needs_refund: false,
        settled_at: s.clock.now(),
        operator_reference: 'OP-1',
        operator: 'MTN',
      });
      expect(await bookingOf(p)).toMatchObject({
        status: 'confirmed',
        confirmed_at: s.clock.now(),
      });
      expect(await eventsOf(p.id)).toMatchObject([
        {
          provider: 'simulator',
          source: 'callback',
          signature_valid: true,
          outcome: 'confirmed',
          payload: raw,
        },
      ]);
    });

    it('tells the status channel that the payment changed', async () => {
      const p = await pending();
      const heard: string[] = [];
      const stop = await s.database.listen(PAYMENT_CHANNEL, (id) => heard.push(id));
      try {
        await machine.applyEvent(event(p, { status: 'FAILED' }), 'status_check', {});
        await vi.waitFor(() => expect(heard).toContain(p.id), { timeout: 5000 });
      } finally {
        await stop();
      }
    });

    it('finds the payment by provider reference when the id is missing, malformed or unknown', async () => {
      for (const paymentId of [null, 'not-a-uuid', UNKNOWN_ID]) {
        const p = await pending();
        expect(await machine.applyEvent(event(p, { paymentId }), 'status_check', {})).toBe(
          'confirmed',
        );
        expect((await paymentRow(p.id)).status).toBe('SUCCESSFUL');
      }
    });

    it('finds the payment by id when the event has no provider reference', async () => {
      const p = await pending();
      const outcome = await machine.applyEvent(
        event(p, { providerReference: null }),
        'status_check',
        {},
      );
      expect(outcome).toBe('confirmed');
    });

    it('applies an event to a payment the provider never gave a reference', async () => {
      const { id } = await pending();
      await s.database.db
        .updateTable('payments')
        .set({ provider_reference: null })
        .where('id', '=', id)
        .execute();
      const p = await paymentRow(id);
      const outcome = await machine.applyEvent(
        event(p, { providerReference: 'late-ref' }),
        'callback',
        {},
      );
      expect(outcome).toBe('confirmed');
    });

    it('records an unknown payment without touching any', async () => {
      const before = (await eventsOf(null)).length;
      const raw = { external_reference: 'nobody' };
      const nobody: ProviderEvent = {
        providerReference: 'no-such-ref',
        paymentId: 'nobody',
        status: 'SUCCESSFUL',
        amount: 2,
        currency: 'XAF',
        operator: null,
        operatorReference: null,
        code: null,
      };
      expect(await machine.applyEvent(nobody, 'callback', raw)).toBe('unknown_payment');
      const after = await eventsOf(null);
      expect(after).toHaveLength(before + 1);
      expect(after.at(-1)).toMatchObject({ outcome: 'unknown_payment', payload: raw });
    });

    it('refuses an event whose provider reference is not the payment’s', async () => {
      const p = await pending();
      const outcome = await machine.applyEvent(
        event(p, { providerReference: 'someone-else' }),
        'callback',
        {},
      );
      expect(outcome).toBe('reference_mismatch');
      expect((await paymentRow(p.id)).status).toBe('PENDING');
      expect((await bookingOf(p)).status).toBe('held');
      expect((await eventsOf(p.id)).map((e) => e.outcome)).toEqual(['reference_mismatch']);
    });

    it('still pending: a callback is recorded, a status check is not', async () => {
      const p = await pending();
      const still = event(p, { status: 'PENDING' });
      expect(await machine.applyEvent(still, 'status_check', {})).toBe('still_pending');
      expect(await eventsOf(p.id)).toEqual([]);
      expect(await machine.applyEvent(still, 'callback', {})).toBe('still_pending');
      expect(await eventsOf(p.id)).toMatchObject([
        { outcome: 'still_pending', source: 'callback' },
      ]);
      expect((await paymentRow(p.id)).status).toBe('PENDING');
      expect((await bookingOf(p)).status).toBe('held');
    });

    it('fails with the provider code, DECLINED without one, and releases the hold', async () => {
      for (const [code, stored] of [
        ['ER201', 'ER201'],
        [null, 'DECLINED'],
      ] as const) {
        const p = await pending();
        expect(await machine.applyEvent(event(p, { status: 'FAILED', code }), 'callback', {})).toBe(
          'failed',
        );
        expect(await paymentRow(p.id)).toMatchObject({
          status: 'FAILED',
          failure_code: stored,
          needs_refund: false,
          refund_reason: null,
          settled_at: s.clock.now(),
        });
        expect((await bookingOf(p)).status).toBe('cancelled');
        expect((await eventsOf(p.id)).map((e) => e.outcome)).toEqual(['failed']);
      }
    });

    it('takes the currency in any case; a success that leaves out the amount or currency is no success', async () => {
      const p = await pending();
      expect(await machine.applyEvent(event(p, { currency: 'xaf' }), 'status_check', {})).toBe(
        'confirmed',
      );
      for (const fields of [{ amount: null }, { currency: null }]) {
        const q = await pending();
        expect(await machine.applyEvent(event(q, fields), 'status_check', {})).toBe(
          'amount_mismatch',
        );
        expect(await paymentRow(q.id)).toMatchObject({ status: 'FAILED', needs_refund: true });
      }
    });

    it('a success for the wrong amount or currency fails the payment and records a refund', async () => {
      const cases = [
        [{ amount: 3 }, 'AMOUNT_MISMATCH: received 3 XAF'],
        [{ currency: 'EUR' }, 'AMOUNT_MISMATCH: received 2 EUR'],
        [{ amount: null, currency: 'EUR' }, 'AMOUNT_MISMATCH: received ? EUR'],
        [{ amount: 3, currency: null }, 'AMOUNT_MISMATCH: received 3 ?'],
      ] as const;
      for (const [fields, reason] of cases) {
        const p = await pending();
        expect(await machine.applyEvent(event(p, fields), 'callback', {})).toBe('amount_mismatch');
        expect(await paymentRow(p.id)).toMatchObject({
          status: 'FAILED',
          failure_code: 'AMOUNT_MISMATCH',
          needs_refund: true,
          refund_reason: reason,
          operator_reference: null,
        });
        expect((await bookingOf(p)).status).toBe('cancelled');
        expect((await eventsOf(p.id)).map((e) => e.outcome)).toEqual(['amount_mismatch']);
      }
    });

    it('saves the operator reference, keeping the payment’s operator when the event names none', async () => {
      const withOperator = async (operator: string) => {
        const { id } = await pending();
        await s.database.db
          .updateTable('payments')
          .set({ operator })
          .where('id', '=', id)
          .execute();
        return paymentRow(id);
      };
      const p = await withOperator('ORANGE');
      await machine.applyEvent(event(p, { operator: null }), 'callback', {});
      expect(await paymentRow(p.id)).toMatchObject({
        operator: 'ORANGE',
        operator_reference: 'OP-1',
      });
      const q = await withOperator('ORANGE');
      await machine.applyEvent(event(q, { operatorReference: null }), 'callback', {});
      expect(await paymentRow(q.id)).toMatchObject({
        status: 'SUCCESSFUL',
        operator: 'ORANGE',
        operator_reference: null,
      });
    });

    it('a final status never moves: duplicates change nothing', async () => {
      const paid = await pending();
      await machine.applyEvent(event(paid), 'callback', {});
      for (const status of ['SUCCESSFUL', 'FAILED', 'PENDING'] as const) {
        expect(await machine.applyEvent(event(paid, { status }), 'callback', {})).toBe('duplicate');
      }
      expect(await paymentRow(paid.id)).toMatchObject({
        status: 'SUCCESSFUL',
        needs_refund: false,
      });
      expect((await bookingOf(paid)).status).toBe('confirmed');

      const failed = await pending();
      await machine.applyEvent(event(failed, { status: 'FAILED' }), 'callback', {});
      expect(await machine.applyEvent(event(failed, { status: 'FAILED' }), 'callback', {})).toBe(
        'duplicate',
      );
      expect(await paymentRow(failed.id)).toMatchObject({ status: 'FAILED', needs_refund: false });
    });

    it('money after a failure is flagged for refund once, with a warning', async () => {
      const warn = vi.spyOn(s.app.log, 'warn');
      const p = await pending();
      await machine.applyEvent(event(p, { status: 'FAILED' }), 'callback', {});
      s.clock.advance(60_000);
      const at = s.clock.now();
      expect(await machine.applyEvent(event(p), 'callback', {})).toBe('refund_due');
      expect(await paymentRow(p.id)).toMatchObject({
        status: 'FAILED',
        needs_refund: true,
        refund_reason: 'PAID_AFTER_FAILURE',
        updated_at: at,
      });
      expect(warn).toHaveBeenCalledWith({ paymentId: p.id }, expect.stringContaining('refund due'));
      expect((await bookingOf(p)).status).toBe('cancelled');
      expect(await machine.applyEvent(event(p), 'callback', {})).toBe('duplicate');
      expect((await eventsOf(p.id)).map((e) => e.outcome).sort()).toEqual(
        ['duplicate', 'failed', 'refund_due'].sort(),
      );
    });

    it('paid after the hold lapsed: confirmed while the seat is free, refund when it is not', async () => {
      const lapse = (p: PaymentRow) =>
        s.database.db
          .updateTable('bookings')
          .set({ status: 'expired' })
          .where('id', '=', p.booking_id)
          .execute();
      const free = await pending();
      await lapse(free);
      expect(await machine.applyEvent(event(free), 'callback', {})).toBe(
        'confirmed_after_hold_lapsed',
      );
      expect((await bookingOf(free)).status).toBe('confirmed');

      const warn = vi.spyOn(s.app.log, 'warn');
      const date = addDays('2026-03-05', day++);
      const late = await pending(date);
      await lapse(late);
      const winner = await pending(date, '690765432');
      expect(await machine.applyEvent(event(late), 'callback', {})).toBe('refund_due');
      expect(await paymentRow(late.id)).toMatchObject({
        status: 'SUCCESSFUL',
        needs_refund: true,
        refund_reason: 'SLOT_TAKEN_AFTER_HOLD_LAPSED',
      });
      expect(warn).toHaveBeenCalledWith(
        { paymentId: late.id },
        expect.stringContaining('refund due'),
      );
      expect((await bookingOf(late)).status).toBe('expired');
      expect((await bookingOf(winner)).status).toBe('held');
    });
  });

  describe('failPending', () => {
    it('fails a pending payment once, releases its hold and records why', async () => {
      const p = await pending();
      const record = { source: 'expiry', outcome: 'expired', payload: { waited: 30 } } as const;
      expect(await machine.failPending(p.id, 'TIMEOUT', record)).toBe(true);
      expect(await paymentRow(p.id)).toMatchObject({
        status: 'FAILED',
        failure_code: 'TIMEOUT',
        settled_at: s.clock.now(),
      });
      expect((await bookingOf(p)).status).toBe('cancelled');
      expect(await eventsOf(p.id)).toMatchObject([
        {
          provider: 'simulator',
          source: 'expiry',
          outcome: 'expired',
          signature_valid: true,
          payload: { waited: 30 },
        },
      ]);
      expect(await machine.failPending(p.id, 'AGAIN', record)).toBe(false);
      expect((await paymentRow(p.id)).failure_code).toBe('TIMEOUT');
      expect(await eventsOf(p.id)).toHaveLength(1);
    });

    it('leaves a settled or unknown payment alone', async () => {
      const p = await pending();
      await machine.applyEvent(event(p), 'callback', {});
      const record = { source: 'callback', outcome: 'collect_refused', payload: {} } as const;
      expect(await machine.failPending(p.id, 'LATE', record)).toBe(false);
      expect(await paymentRow(p.id)).toMatchObject({ status: 'SUCCESSFUL', failure_code: null });
      expect((await bookingOf(p)).status).toBe('confirmed');
      expect(await machine.failPending(UNKNOWN_ID, 'LATE', record)).toBe(false);
    });
  });
});
