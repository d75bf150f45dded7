// engines: postgres and pglite — payment limits are rate counters (in memory on PGlite, upserts on PostgreSQL)
import { paymentResponseSchema } from '@qless/contract';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import type { PaymentProvider } from '../../src/providers/provider.js';
import { useStack } from '../support/app-fixture.js';
import { initiateBody } from '../support/fixtures.js';
import { NO_LIMITS } from '../support/payment-helpers.js';

describe('who may hold seats', () => {
  const s = useStack({
    env: {
      RATE_LIMIT_INITIATE_PER_IP: '1000',
      RATE_LIMIT_INITIATE_PER_PHONE: '2',
      HOLDS_PER_IP: '1000',
      HOLDS_PER_IP_PER_SERVICE: '3',
      // The burst below starts eight payments for one number; the prompts one number may
      // get are tested in their own block.
      PAYMENT_PROMPTS_PER_PHONE: '1000',
      SIMULATOR_DELAY_MS: '600000',
    },
  });

  const start = (
    address: string,
    slotIndex: number,
    phone: string,
    date = '2026-03-05',
    overrides: Record<string, unknown> = {},
  ) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      remoteAddress: address,
      payload: initiateBody(s.fx, { slotIndex, phone_number: phone, date, ...overrides }),
    });
  const paymentsOf = (phone: string) =>
    s.database.db
      .selectFrom('payments as p')
      .innerJoin('bookings as b', 'b.id', 'p.booking_id')
      .select(['p.status', 'p.failure_code', 'b.status as booking_status'])
      .where('p.phone_number', '=', `+237${phone}`)
      // The pinned clock gives every payment the same created_at: order by outcome.
      .orderBy('p.status')
      .execute();

  // Before: five starts with a victim's number from anywhere locked the number for 15 minutes.
  it('five starts with a victim’s number do not lock the victim out', async () => {
    const victim = '677555001';
    const codes: number[] = [];
    for (const slotIndex of [1, 2, 3, 4, 5]) {
      codes.push((await start('198.51.100.66', slotIndex, victim, '2026-03-06')).statusCode);
    }
    // From its own address the attacker meets the per-phone limit (2 slot-dates)...
    expect(codes).toEqual([201, 201, 429, 429, 429]);
    // ...the victim, elsewhere, does not, and its start replaces the attacker's hold.
    const mine = await start('203.0.113.10', 6, victim, '2026-03-06');
    expect(mine.statusCode).toBe(201);
    const rows = await paymentsOf(victim);
    expect(rows.map((r) => [r.status, r.failure_code, r.booking_status])).toEqual([
      ['FAILED', 'SUPERSEDED', 'cancelled'],
      ['FAILED', 'SUPERSEDED', 'cancelled'],
      ['PENDING', null, 'held'],
    ]);
  });

  it('a start on a full slot is refused before anything else: the number keeps its payment elsewhere, and its own hold does not count against it', async () => {
    const phone = '677555020';
    expect((await start('203.0.113.40', 30, phone, '2026-03-09')).statusCode).toBe(201);
    expect((await start('203.0.113.41', 31, '677555021', '2026-03-09')).statusCode).toBe(201);
    const refused = await start('203.0.113.40', 31, phone, '2026-03-09');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'SLOT_TAKEN' });
    // The refused start replaced nothing: the number's hold on the other slot still stands.
    expect((await paymentsOf(phone)).map((r) => [r.status, r.booking_status])).toEqual([
      ['PENDING', 'held'],
    ]);
    // The number's own hold fills its slot, yet its new start there (the e-mail corrected:
    // not a repeat of the pending one) goes through and replaces it.
    const corrected = { cus_email: 'ngono.m@example.com' };
    expect((await start('203.0.113.40', 30, phone, '2026-03-09', corrected)).statusCode).toBe(201);
    const rows = await paymentsOf(phone);
    expect(rows.map((r) => [r.status, r.booking_status])).toEqual([
      ['FAILED', 'cancelled'],
      ['PENDING', 'held'],
    ]);
  });

  it('a repeat of the same slot is what the customer meant and does not count', async () => {
    const phone = '677555002';
    const address = '203.0.113.20';
    expect((await start(address, 10, phone)).statusCode).toBe(201);
    expect((await start(address, 11, phone)).statusCode).toBe(201);
    // Back to the first slot: the earlier hold is replaced, the slot taken again; once more,
    // the pending start answers (200) and no payment is added.
    expect((await start(address, 10, phone)).statusCode).toBe(201);
    expect((await start(address, 10, phone)).statusCode).toBe(200);
    const third = await start(address, 12, phone);
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ code: 'RATE_LIMITED' });
    const rows = await paymentsOf(phone);
    expect(rows.filter((r) => r.status === 'PENDING')).toHaveLength(1);
  });

  // Before: one client held every slot-date of a service with numbers ending 999.
  it('caps live holds per client address and service with 429 TOO_MANY_HOLDS', async () => {
    const address = '198.51.100.77';
    const codes: number[] = [];
    for (const [i, slotIndex] of [20, 21, 22, 23].entries()) {
      codes.push((await start(address, slotIndex, `67766600${i}`)).statusCode);
    }
    expect(codes).toEqual([201, 201, 201, 429]);
    const over = await start(address, 24, '677666009');
    expect(over.json()).toMatchObject({ code: 'TOO_MANY_HOLDS' });
    // Another client is not affected.
    expect((await start('203.0.113.30', 25, '677666010')).statusCode).toBe(201);
    // A hold that ends (here: replaced) no longer counts.
    expect((await start('203.0.113.31', 26, '677666000')).statusCode).toBe(201);
    expect((await start(address, 27, '677666011')).statusCode).toBe(201);
  });

  // On PostgreSQL the burst runs in parallel transactions: without the phone lock and the
  // re-check under it, several starts for one number would each leave a pending payment.
  it('leaves one pending payment per number under a burst', async () => {
    const phone = '677999888';
    const codes = await Promise.all(
      [30, 31, 32, 33, 34, 35, 36, 37].map(
        async (slotIndex) => (await start(`203.0.113.${slotIndex}`, slotIndex, phone)).statusCode,
      ),
    );
    expect(codes.every((c) => c === 201 || c === 409)).toBe(true);
    const rows = await paymentsOf(phone);
    expect(rows.filter((r) => r.status === 'PENDING')).toHaveLength(1);
    expect(rows.filter((r) => r.booking_status === 'held')).toHaveLength(1);
  });
});

// Issue 18, point 10: one client address sent 42 approval prompts to a stranger's phone, by
// repeating one start (each made a new collect) and by starting from several addresses.
describe('approval prompts sent to one number', () => {
  const s = useStack({
    env: { ...NO_LIMITS, PAYMENT_PROMPTS_PER_PHONE: '3', SIMULATOR_DELAY_MS: '600000' },
  });
  let collect: MockInstance<PaymentProvider['collect']>;

  beforeEach(() => {
    collect = vi.spyOn(s.app.payments.provider, 'collect');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const send = (address: string, body: Record<string, unknown>) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      remoteAddress: address,
      payload: body,
    });
  /** The same request as `body` under a new reference, as a retry or a script sends it. */
  const again = (body: Record<string, unknown>) => ({
    ...body,
    reference: initiateBody(s.fx).reference,
  });
  /** Collect requests the provider got for this number (each one a prompt on the phone). */
  const prompts = (phone: string) =>
    collect.mock.calls.filter(([request]) => request.phone === `+237${phone}`).length;
  const paymentsOf = (phone: string) =>
    s.database.db
      .selectFrom('payments')
      .select(['id', 'status', 'failure_code'])
      .where('phone_number', '=', `+237${phone}`)
      .execute();

  it('a repeat of the pending start reuses its prompt: the pending payment answers, 200', async () => {
    const phone = '677555201';
    const body = initiateBody(s.fx, { slotIndex: 2, date: '2026-03-10', phone_number: phone });
    const first = await send('198.51.100.20', body);
    expect(first.statusCode).toBe(201);
    const pending = paymentResponseSchema.parse(first.json()).payment;
    // Before: each of these made a new payment and a new collect.
    for (let i = 0; i < 5; i += 1) {
      const repeat = await send('198.51.100.20', again(body));
      expect(repeat.statusCode).toBe(200);
      // What the client needs to follow the payment: the same id, booking, key, hold's end
      // and USSD code as the first answer (as a replay of the same reference answers).
      expect(paymentResponseSchema.parse(repeat.json()).payment).toEqual(pending);
    }
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => send('198.51.100.20', again(body))),
    );
    expect(burst.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    for (const r of burst) expect(r.json().payment.payment_id).toBe(pending.payment_id);
    expect(prompts(phone)).toBe(1);
    expect(await paymentsOf(phone)).toEqual([
      { id: pending.payment_id, status: 'PENDING', failure_code: null },
    ]);
  });

  it('the same request from another address, or with another e-mail, is a new start: never the pending one’s payment or key', async () => {
    const phone = '677555202';
    const body = initiateBody(s.fx, { slotIndex: 3, date: '2026-03-10', phone_number: phone });
    const mine = paymentResponseSchema.parse((await send('198.51.100.21', body)).json()).payment;
    const elsewhere = await send('203.0.113.21', again(body));
    expect(elsewhere.statusCode).toBe(201);
    const other = paymentResponseSchema.parse(elsewhere.json()).payment;
    expect(other.payment_id).not.toBe(mine.payment_id);
    expect(other.access_key).not.toBe(mine.access_key);
    const corrected = await send('203.0.113.21', {
      ...again(body),
      cus_email: 'other.mail@example.com',
    });
    expect(corrected.statusCode).toBe(201);
    expect(corrected.json().payment.payment_id).not.toBe(other.payment_id);
    expect(prompts(phone)).toBe(3);
  });

  it('at most PAYMENT_PROMPTS_PER_PHONE prompts an hour reach one number, from every address and slot', async () => {
    const phone = '677555203';
    const codes: number[] = [];
    const bodies: Record<string, unknown>[] = [];
    for (const [i, slotIndex] of [10, 11, 12, 13].entries()) {
      const body = initiateBody(s.fx, { slotIndex, date: '2026-03-11', phone_number: phone });
      bodies.push(body);
      const res = await send(`198.51.100.${30 + i}`, body);
      codes.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json()).toMatchObject({
          code: 'RATE_LIMITED',
          message: expect.stringContaining('this number'),
        });
      }
    }
    // Before: each address had a budget of its own for the number; all four went through.
    expect(codes).toEqual([201, 201, 201, 429]);
    expect(prompts(phone)).toBe(3);
    // The refused start changed nothing: the number's third payment is still pending.
    const rows = await paymentsOf(phone);
    expect(rows.map((r) => r.status).sort()).toEqual(['FAILED', 'FAILED', 'PENDING']);
    // Its repeat is still answered (no prompt is sent); another number is not concerned.
    const third = bodies[2] ?? {};
    expect((await send('198.51.100.32', again(third))).statusCode).toBe(200);
    const another = initiateBody(s.fx, {
      slotIndex: 13,
      date: '2026-03-11',
      phone_number: '677555204',
    });
    expect((await send('198.51.100.33', another)).statusCode).toBe(201);
    expect(prompts(phone)).toBe(3);
    // An hour later the number may be prompted again.
    s.clock.advance(61 * 60_000);
    try {
      const later = initiateBody(s.fx, { slotIndex: 14, date: '2026-03-11', phone_number: phone });
      expect((await send('198.51.100.34', later)).statusCode).toBe(201);
      expect(prompts(phone)).toBe(4);
    } finally {
      s.clock.advance(-61 * 60_000);
    }
  });
});
