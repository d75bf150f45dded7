import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { initiateBody } from '../support/fixtures.js';
import { useSimulatorApp } from '../support/simulator-harness.js';

describe('payment settlement with the simulator', () => {
  const h = useSimulatorApp();

  it('a decline releases the hold', async () => {
    const date = h.nextDate();
    const res = await h.initiate(initiateBody(h.fx, { date, phone_number: '677123000' }));
    const id = res.json().payment.payment_id as string;
    expect((await h.callback(id, 'FAILED', { code: 'ER301' })).json()).toMatchObject({
      outcome: 'failed',
    });
    expect(await h.status(id)).toMatchObject({
      status: 'FAILED',
      ticket: null,
      failure_code: 'ER301',
    });
    expect(await h.taken(date)).toEqual([]);
    expect((await h.initiate(initiateBody(h.fx, { date }))).statusCode).toBe(201);
  });

  it('forged, duplicate and out-of-order callbacks change nothing', async () => {
    const date = h.nextDate();
    const id = (await h.initiate(initiateBody(h.fx, { date }))).json().payment.payment_id as string;
    const forgedSig = await new SignJWT({ status: 'SUCCESSFUL' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('not-the-key-not-the-key-not-the-key'));
    const forged = await h.callback(id, 'SUCCESSFUL', {}, forgedSig);
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'INVALID_SIGNATURE' });
    const unsigned = await h.app.inject({
      method: 'POST',
      url: '/api/v1/payment/callback/simulator',
      payload: { status: 'SUCCESSFUL', external_reference: id },
    });
    expect(unsigned.statusCode).toBe(401);
    expect((await h.status(id)).status).toBe('PENDING');

    expect((await h.callback(id, 'SUCCESSFUL')).json()).toMatchObject({ outcome: 'confirmed' });
    const ticketBefore = (await h.status(id)).ticket?.code;
    expect((await h.callback(id, 'SUCCESSFUL')).json()).toMatchObject({ outcome: 'duplicate' });
    const late = await h.callback(id, 'FAILED');
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({ outcome: 'duplicate' });
    const after = await h.status(id);
    expect(after.status).toBe('SUCCESSFUL');
    expect(after.ticket?.code).toBe(ticketBefore);

    const log = await h.database.db
      .selectFrom('payment_events')
      .select(['outcome', 'signature_valid'])
      .where('payment_id', '=', id)
      .orderBy('received_at')
      .execute();
    expect(log.map((l) => l.outcome)).toEqual(['confirmed', 'duplicate', 'duplicate']);
    const rejected = await h.database.db
      .selectFrom('payment_events')
      .select('outcome')
      .where('outcome', '=', 'rejected_signature')
      .execute();
    expect(rejected.length).toBeGreaterThanOrEqual(2);
  });

  it('a success for the wrong amount is not confirmed and is recorded for refund', async () => {
    const date = h.nextDate();
    const id = (await h.initiate(initiateBody(h.fx, { date }))).json().payment.payment_id as string;
    expect((await h.callback(id, 'SUCCESSFUL', { amount: '1' })).json()).toMatchObject({
      outcome: 'amount_mismatch',
    });
    expect(await h.status(id)).toMatchObject({
      status: 'FAILED',
      failure_code: 'AMOUNT_MISMATCH',
      ticket: null,
    });
    const row = await h.database.db
      .selectFrom('payments')
      .select(['needs_refund', 'refund_reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.needs_refund).toBe(true);
    expect(row.refund_reason).toContain('AMOUNT_MISMATCH');
  });

  it('a payment that succeeds after its hold lapsed: confirmed while the slot is free, refund record when it is not', async () => {
    const date = h.nextDate();
    // Numbers ending in 999 never settle on their own, so the sweep only lapses the holds.
    const a = (
      await h.initiate(initiateBody(h.fx, { date, slotIndex: 8, phone_number: '677100999' }))
    ).json().payment.payment_id as string;
    const b = (
      await h.initiate(initiateBody(h.fx, { date, slotIndex: 9, phone_number: '677200999' }))
    ).json().payment.payment_id as string;
    h.clock.advance(11 * 60_000);
    try {
      const swept = await h.app.payments.reconciler.sweep();
      expect(swept.expiredHolds).toBeGreaterThanOrEqual(2);
      expect(await h.taken(date)).toEqual([]);
      // Slot 9 is taken by someone else meanwhile.
      expect(
        (await h.initiate(initiateBody(h.fx, { date, slotIndex: 9, phone_number: '699887766' })))
          .statusCode,
      ).toBe(201);

      expect((await h.callback(a, 'SUCCESSFUL')).json()).toMatchObject({
        outcome: 'confirmed_after_hold_lapsed',
      });
      expect((await h.status(a)).ticket).not.toBeNull();

      expect((await h.callback(b, 'SUCCESSFUL')).json()).toMatchObject({ outcome: 'refund_due' });
      const paid = await h.database.db
        .selectFrom('payments')
        .select(['status', 'needs_refund', 'refund_reason'])
        .where('id', '=', b)
        .executeTakeFirstOrThrow();
      expect(paid).toEqual({
        status: 'SUCCESSFUL',
        needs_refund: true,
        refund_reason: 'SLOT_TAKEN_AFTER_HOLD_LAPSED',
      });
      expect((await h.status(b)).ticket).toBeNull();
    } finally {
      h.clock.advance(-11 * 60_000);
    }
  });

  it('gives up on a payment that never settles, and records a late success for refund', async () => {
    const date = h.nextDate();
    const id = (await h.initiate(initiateBody(h.fx, { date, phone_number: '677123999' }))).json()
      .payment.payment_id as string;
    h.clock.advance(31 * 60_000);
    try {
      const swept = await h.app.payments.reconciler.sweep();
      expect(swept.expiredPayments).toBeGreaterThanOrEqual(1);
      expect(await h.status(id)).toMatchObject({ status: 'FAILED', failure_code: 'EXPIRED' });
      expect((await h.callback(id, 'SUCCESSFUL')).json()).toMatchObject({ outcome: 'refund_due' });
      const row = await h.database.db
        .selectFrom('payments')
        .select(['status', 'needs_refund'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'FAILED', needs_refund: true });
    } finally {
      h.clock.advance(-31 * 60_000);
    }
  });

  it("a collect whose answer was never saved is found in the simulator's book and settled", async () => {
    const date = h.nextDate();
    const id = (await h.initiate(initiateBody(h.fx, { date }))).json().payment.payment_id as string;
    const db = h.database.db;
    // As when the process died, or its database link failed, between the collect and saving
    // its reference: the payment has none, and the process that would call back is gone.
    const { reference } = await db
      .selectFrom('simulator_collects')
      .select('reference')
      .where('payment_id', '=', id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('payments')
      .set({ provider_reference: null })
      .where('id', '=', id)
      .execute();
    h.clock.advance(61_000);
    try {
      await h.app.payments.reconciler.sweep();
      expect(await h.status(id)).toMatchObject({ status: 'SUCCESSFUL' });
      const row = await db
        .selectFrom('payments')
        .select('provider_reference')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.provider_reference).toBe(reference);
      const outcomes = await db
        .selectFrom('payment_events')
        .select('outcome')
        .where('payment_id', '=', id)
        .orderBy('received_at')
        .execute();
      expect(outcomes.map((e) => e.outcome)).toEqual(['found_by_lookup', 'confirmed']);
    } finally {
      h.clock.advance(-61_000);
    }
  });

  it('a payment the simulator never collected fails a minute after it started, freeing its seat', async () => {
    const date = h.nextDate();
    const id = (await h.initiate(initiateBody(h.fx, { date }))).json().payment.payment_id as string;
    const db = h.database.db;
    // As when the process died between the hold and the collect: no collect in the book.
    await db.deleteFrom('simulator_collects').where('payment_id', '=', id).execute();
    await db
      .updateTable('payments')
      .set({ provider_reference: null })
      .where('id', '=', id)
      .execute();
    h.clock.advance(30_000);
    try {
      // Not found yet, but young: it waits (the collect may still be under way).
      await h.app.payments.reconciler.sweep();
      expect((await h.status(id)).status).toBe('PENDING');
      expect(await h.taken(date)).toHaveLength(1);
      h.clock.advance(31_000);
      const swept = await h.app.payments.reconciler.sweep();
      expect(swept.expiredPayments).toBe(1);
      expect(await h.status(id)).toMatchObject({
        status: 'FAILED',
        failure_code: 'NOT_AT_PROVIDER',
        ticket: null,
      });
      // The seat list is a cached read, invalidated by a notification after the commit.
      await expect.poll(() => h.taken(date)).toEqual([]);
      const row = await db
        .selectFrom('payments')
        .select(['needs_review', 'needs_refund'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ needs_review: false, needs_refund: false });
      // Were a success reported after all, it is recorded for refund.
      expect((await h.callback(id, 'SUCCESSFUL')).json()).toMatchObject({ outcome: 'refund_due' });
    } finally {
      h.clock.advance(-61_000);
    }
  });

  it('does not fail as never collected a payment whose reference was saved meanwhile', async () => {
    const date = h.nextDate();
    const id = (await h.initiate(initiateBody(h.fx, { date }))).json().payment.payment_id as string;
    const fail = () =>
      h.app.payments.stateMachine.failPending(
        id,
        'NOT_AT_PROVIDER',
        { source: 'status_check', outcome: 'not_at_provider', payload: {} },
        undefined,
        { unlessReferenced: true },
      );
    // The collect's answer is saved: checked under the row lock, the payment is left alone.
    expect(await fail()).toBe(false);
    expect((await h.status(id)).status).toBe('PENDING');
    await h.database.db
      .updateTable('payments')
      .set({ provider_reference: null })
      .where('id', '=', id)
      .execute();
    expect(await fail()).toBe(true);
    expect(await h.status(id)).toMatchObject({ status: 'FAILED', failure_code: 'NOT_AT_PROVIDER' });
  });

  it('answers unknown payments, tickets and providers with codes', async () => {
    const unknown = await h.app.inject({
      method: 'GET',
      url: '/api/v1/payment/00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'PAYMENT_NOT_FOUND' });
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/v1/payment/xyz' })).json(),
    ).toMatchObject({
      code: 'INVALID_ID',
    });
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/v1/tickets/QL-2222-22' })).statusCode,
    ).toBe(404);
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/v1/tickets/hello' })).json(),
    ).toMatchObject({ code: 'INVALID_TICKET' });
    expect(
      (
        await h.app.inject({
          method: 'GET',
          url: '/api/v1/payment/callback/paypal?status=SUCCESSFUL',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/v1/tickets/verify', payload: {} }))
        .statusCode,
    ).toBe(401);
  });
});
