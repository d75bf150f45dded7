// engines: postgres and pglite — concurrent starts on one seat under row locks (PGlite: one session)
import { paymentResponseSchema } from '@qless/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentRow } from '../../src/db/schema.js';
import { insertHold } from '../../src/modules/bookings/bookings.repository.js';
import type { ProviderEvent } from '../../src/providers/provider.js';
import { useStack } from '../support/app-fixture.js';
import { initiateBody } from '../support/fixtures.js';
import { NO_LIMITS } from '../support/payment-helpers.js';

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

// Issue 18, point 14: in a burst over two processes, a start admitted by its read (a seat
// free) then refused (another process took the seat first) had already superseded the same
// number's held payment, and another customer took that seat.
describe('a start refused after its read', () => {
  const s = useStack({ env: { ...NO_LIMITS, SIMULATOR_DELAY_MS: '600000' } });
  const date = '2026-03-12';

  afterEach(() => {
    vi.restoreAllMocks();
  });

  const start = (slotIndex: number, phone: string) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(s.fx, { date, slotIndex, phone_number: phone }),
    });
  const stateOf = (paymentId: string) =>
    s.database.db
      .selectFrom('payments as p')
      .innerJoin('bookings as b', 'b.id', 'p.booking_id')
      .select(['p.status', 'p.failure_code', 'b.status as booking_status'])
      .where('p.id', '=', paymentId)
      .executeTakeFirstOrThrow();
  const activeOn = async (slotIndex: number) =>
    Number(
      (
        await s.database.db
          .selectFrom('bookings')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('slot_id', '=', s.fx.slotIds[slotIndex] ?? '')
          .where('booking_date', '=', date)
          .where('status', 'in', ['held', 'confirmed', 'checked_in'])
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** Another customer (another process) takes the slot's one seat just after the next read. */
  function seatTakenAfterTheRead(slotIndex: number): void {
    const bookings = s.app.payments.bookings;
    const read = bookings.readForInitiations.bind(bookings);
    vi.spyOn(bookings, 'readForInitiations').mockImplementationOnce(
      async (slot, initiations, now) => {
        const views = await read(slot, initiations, now);
        await insertHold(
          s.database.db,
          {
            organization_id: s.fx.orgId,
            service_id: s.fx.serviceId,
            slot_id: s.fx.slotIds[slotIndex] ?? '',
            booking_date: date,
            cus_name: 'Other Process',
            cus_email: 'other.process@example.com',
            phone_number: '+237677555149',
            seat: 1,
            hold_expires_at: new Date(now.getTime() + 10 * 60_000),
          },
          now,
        );
        return views;
      },
    );
  }

  it('leaves the number’s held seat as it was; a start that places its hold still replaces it', async () => {
    const phone = '677555140';
    const first = await start(3, phone);
    expect(first.statusCode).toBe(201);
    const held = paymentResponseSchema.parse(first.json()).payment;

    seatTakenAfterTheRead(4);
    const refused = await start(4, phone);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'SLOT_TAKEN' });
    // Before: the held payment was already failed (SUPERSEDED) and its seat free for anyone.
    expect(await stateOf(held.payment_id)).toEqual({
      status: 'PENDING',
      failure_code: null,
      booking_status: 'held',
    });
    expect(await activeOn(3)).toBe(1);
    const taker = await start(3, '677555141');
    expect(taker.json()).toMatchObject({ code: 'SLOT_TAKEN' });

    // A start that places its hold replaces the number's earlier one, as before.
    const moved = await start(5, phone);
    expect(moved.statusCode).toBe(201);
    expect(await stateOf(held.payment_id)).toEqual({
      status: 'FAILED',
      failure_code: 'SUPERSEDED',
      booking_status: 'cancelled',
    });
    expect(await activeOn(3)).toBe(0);
    expect(await activeOn(5)).toBe(1);
  });
});
