import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { initiateBody } from '../support/fixtures.js';
import { insertPendingBacklog } from '../support/payment-backlog.js';
import { useSimulatorApp } from '../support/simulator-harness.js';

describe('awkward callbacks and backlogs with the simulator', () => {
  const h = useSimulatorApp();
  const post = (payload: string) =>
    h.app.inject({
      method: 'POST',
      url: '/api/v1/payment/callback/simulator',
      headers: { 'content-type': 'application/json' },
      payload,
    });
  const pending = async (phone = '677123456') =>
    (await h.initiate(initiateBody(h.fx, { date: h.nextDate(), phone_number: phone }))).json()
      .payment.payment_id as string;

  it('a valid signed callback with NUL in its text settles; NUL elsewhere is a 4xx', async () => {
    const id = await pending();
    const res = await h.callback(id, 'SUCCESSFUL', { operator_reference: 'OP\u0000X' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ outcome: 'confirmed' });
    const row = await h.database.db
      .selectFrom('payments')
      .select('operator_reference')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.operator_reference).toBe('OPX');
    for (const body of [
      '{"status":"SUCCESSFUL","code":"a\\u0000b","signature":"x"}',
      '{"status\\u0000":"\\\\u0000","signature":"\\u0000"}',
      '{"nested":{"k\\u0000":["\\u0000"]},"signature":"x"}',
    ]) {
      expect((await post(body)).statusCode, body).toBe(401);
    }
  });

  it('a lone surrogate in a callback is a 400 with a code, and is stored escaped', async () => {
    for (const body of [
      '{"status":"\\ud800","signature":"x"}',
      '{"\\udc00":"SUCCESSFUL","signature":"x"}',
      '{"status":"SUCCESSFUL","signature":"x","a":["\\ud83d"]}',
    ]) {
      const res = await post(body);
      expect(res.statusCode, body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_ENCODING' });
    }
    const stored = await h.database.db
      .selectFrom('payment_events')
      .select(sql<string>`payload::text`.as('text'))
      .where('outcome', '=', 'rejected_malformed')
      .where('signature_valid', '=', false)
      .execute();
    expect(stored.filter((r) => r.text.includes('\\\\ud800'))).toHaveLength(1);
  });

  it('a simulator success without an amount does not confirm', async () => {
    const id = await pending();
    const res = await h.callback(id, 'SUCCESSFUL', { amount: '' });
    expect(res.statusCode).toBe(400);
    expect((await h.status(id)).status).toBe('PENDING');
  });

  it('stores at most 10 rejected callbacks per client and minute, and answers every one', async () => {
    const client = '203.0.113.77';
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const res = await h.app.inject({
        method: 'GET',
        url: `/api/v1/payment/callback/simulator?status=SUCCESSFUL&probe=budget&signature=f${i}`,
        remoteAddress: client,
      });
      statuses.push(res.statusCode);
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
    const stored = await h.database.db
      .selectFrom('payment_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(sql<boolean>`payload @> ${JSON.stringify({ probe: 'budget' })}::jsonb`)
      .where('outcome', '=', 'rejected_signature')
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(10);
  });

  it('a payment whose outcome cannot be learned ends in needs_review, not silently failed', async () => {
    const id = await pending('677123999');
    // A reference the provider cannot answer about: every status check fails. (A payment
    // without one is looked up in the simulator's book: payment-settlement.test.ts.)
    await h.database.db
      .updateTable('payments')
      .set({ provider_reference: 'sim_unreadable' })
      .where('id', '=', id)
      .execute();
    h.clock.advance(31 * 60_000);
    try {
      await h.app.payments.reconciler.sweep();
    } finally {
      h.clock.advance(-31 * 60_000);
    }
    const row = await h.database.db
      .selectFrom('payments')
      .select(['status', 'failure_code', 'needs_review', 'review_reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      status: 'FAILED',
      failure_code: 'OUTCOME_UNKNOWN',
      needs_review: true,
      review_reason: 'PROVIDER_UNAVAILABLE',
    });
  });

  it('one sweep settles a backlog of 1,000 pending payments', async () => {
    const ids = await insertPendingBacklog(h.database, h.fx, 1000, h.clock.now());
    h.clock.advance(60_000);
    try {
      const swept = await h.app.payments.reconciler.sweep();
      expect(swept.checked).toBeGreaterThanOrEqual(1000);
    } finally {
      h.clock.advance(-60_000);
    }
    const left = await h.database.db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', 'in', ids)
      .where('status', '=', 'PENDING')
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });
});
