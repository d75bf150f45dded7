import {
  paymentResponseSchema,
  paymentStatusMessageSchema,
  ticketResponseSchema,
} from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixedClock } from '../src/clock.js';
import type { Database } from '../src/db/database.js';
import { signSimulatorCallback } from '../src/providers/simulator.js';
import { createFixture, type Fixture, initiateBody } from './support/fixtures.js';
import { createTestApp } from './support/test-app.js';
import { createTestDatabase, engines, type TestDatabase } from './support/test-db.js';

const LIMITS = { RATE_LIMIT_INITIATE_PER_IP: '100000', RATE_LIMIT_INITIATE_PER_PHONE: '100000' };

describe.each(engines)('booking and payment with the simulator on %s', (engine) => {
  let tdb: TestDatabase;
  let database: Database;
  let app: FastifyInstance;
  let clock: FixedClock;
  let fx: Fixture;
  /** Each test books its own day so tests never share a slot. */
  let day = 4;
  const nextDate = () => {
    day += 1;
    return `2026-03-${String(day).padStart(2, '0')}`;
  };

  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    database = tdb.database;
    ({ app, clock } = await createTestApp(database, {
      env: { ...LIMITS, SIMULATOR_DELAY_MS: '60000' },
    }));
    fx = await createFixture(database, clock.now());
  });

  afterAll(async () => {
    await app?.close();
    await tdb?.cleanup();
  });

  const initiate = (body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/v1/payment/initiate', payload: body });
  const status = async (id: string) =>
    paymentStatusMessageSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/v1/payment/${id}` })).json(),
    );
  const taken = async (date: string) =>
    (
      (
        await app.inject({
          method: 'GET',
          url: `/api/v1/service/${fx.serviceId}/bookings?start=${date}&end=${date}`,
        })
      ).json() as {
        bookings: { slot_id: string }[];
      }
    ).bookings.map((b) => b.slot_id);

  async function simulatorSignature(fields: Record<string, string>): Promise<string> {
    const row = await database.db
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', 'simulator_signing_key')
      .executeTakeFirstOrThrow();
    return signSimulatorCallback(row.value, fields);
  }

  async function callback(
    paymentId: string,
    status: string,
    extra: Record<string, string> = {},
    signature?: string,
  ) {
    const payment = await database.db
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
    const sig = signature ?? (await simulatorSignature(fields));
    return app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/simulator?${new URLSearchParams({ ...fields, signature: sig })}`,
    });
  }

  it('holds the slot, settles through a signed callback, confirms with a ticket', async () => {
    const date = nextDate();
    const res = await initiate(initiateBody(fx, { date, slotIndex: 3 }));
    expect(res.statusCode).toBe(201);
    const { payment } = paymentResponseSchema.parse(res.json());
    expect(payment).toMatchObject({
      status: 'PENDING',
      amount: 2,
      currency: 'XAF',
      provider: 'simulator',
    });
    expect(new Date(payment.hold_expires_at).getTime() - clock.now().getTime()).toBe(10 * 60_000);
    // Held counts as taken at once.
    expect(await taken(date)).toEqual([fx.slotIds[3]]);
    const booking = await database.db
      .selectFrom('bookings')
      .selectAll()
      .where('id', '=', payment.booking_id)
      .executeTakeFirstOrThrow();
    expect(booking).toMatchObject({
      status: 'held',
      phone_number: '+237677123456',
      booking_date: date,
    });

    const cb = await callback(payment.payment_id, 'SUCCESSFUL');
    expect(cb.statusCode).toBe(200);
    expect(cb.json()).toEqual({ ok: true, outcome: 'confirmed' });
    const s = await status(payment.payment_id);
    expect(s.status).toBe('SUCCESSFUL');
    expect(s.ticket).toMatchObject({
      customer_name: 'Ngono Marie',
      email: 'ngono.marie@example.com',
      phone: '+237677123456',
      date,
      time: '07:45',
      time_zone: 'Africa/Douala',
      organization: expect.stringContaining('Guichet Unique'),
      location: 'Rue Joss, Bonanjo, Douala',
    });
    expect(s.ticket?.code).toMatch(/^QL-[A-Z0-9]{4}-[A-Z0-9]{2}$/);
    expect(await taken(date)).toEqual([fx.slotIds[3]]);

    // Re-download by code: booking details, contact details masked.
    const byCode = await app.inject({ method: 'GET', url: `/api/v1/tickets/${s.ticket?.code}` });
    expect(byCode.statusCode).toBe(200);
    const { ticket } = ticketResponseSchema.parse(byCode.json());
    expect(ticket.customer_name).toBe('Ngono Marie');
    expect(ticket.phone).not.toContain('677123456');
    expect(ticket.email).not.toContain('ngono.marie');
    expect(ticket.token).toBe(s.ticket?.token);

    // Staff verify the QR token.
    const verify = await app.inject({
      method: 'POST',
      url: '/api/v1/tickets/verify',
      payload: { token: ticket.token },
    });
    expect(verify.json()).toMatchObject({
      valid: true,
      booking_status: 'confirmed',
      ticket: { code: ticket.code },
    });
    const forged = `${ticket.token.slice(0, -4)}AAAA`;
    const bad = await app.inject({
      method: 'POST',
      url: '/api/v1/tickets/verify',
      payload: { token: forged },
    });
    expect(bad.json()).toMatchObject({ valid: false, reason: 'INVALID_SIGNATURE' });
  });

  it('accepts the phone and amount forms the spec client sends, and stores the number normalized', async () => {
    for (const [phone, amount] of [
      ['677123456', 2],
      ['2376 77 12 34 56', '2'],
      ['+237 677-123-456', ' 2 '],
    ] as const) {
      const date = nextDate();
      const res = await initiate(initiateBody(fx, { date, phone_number: phone, amount }));
      expect(res.statusCode, String(phone)).toBe(201);
      const { payment } = paymentResponseSchema.parse(res.json());
      const row = await database.db
        .selectFrom('payments')
        .select('phone_number')
        .where('id', '=', payment.payment_id)
        .executeTakeFirstOrThrow();
      expect(row.phone_number).toBe('+237677123456');
    }
  });

  it('rejects bad input with a code and keeps nothing', async () => {
    const date = nextDate();
    const before = await database.db
      .selectFrom('bookings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ cus_name: '  ' }, 400, 'INVALID_NAME'],
      [{ cus_email: 'not-an-email' }, 400, 'INVALID_EMAIL'],
      [{ phone_number: '+23767712345' }, 400, 'INVALID_PHONE'],
      [{ phone_number: '233123456' }, 400, 'INVALID_PHONE'],
      [{ amount: 1 }, 400, 'AMOUNT_MISMATCH'],
      [{ amount: '0.5' }, 400, 'AMOUNT_MISMATCH'],
      [{ amount: 'two' }, 400, 'INVALID_AMOUNT'],
      [{ currency: 'EUR' }, 400, 'CURRENCY_MISMATCH'],
      [{ reference: 'x' }, 400, 'INVALID_REFERENCE'],
      [{ date: '2026-02-30' }, 400, 'INVALID_DATE'],
      [{ date: '2026-03-03' }, 400, 'SLOT_IN_PAST'],
      // Today 09:30 in Douala: 07:00 has started, 10:00 has not.
      [{ date: '2026-03-04', slotIndex: 0 }, 400, 'SLOT_IN_PAST'],
      [{ date: '2026-05-04' }, 400, 'DATE_OUT_OF_HORIZON'],
      [{ slot_id: '00000000-0000-4000-8000-000000000000' }, 404, 'SLOT_NOT_FOUND'],
      [{ service_id: '00000000-0000-4000-8000-000000000000' }, 404, 'SERVICE_NOT_FOUND'],
      [{ slot_id: 'nope' }, 400, 'INVALID_ID'],
      [{ currency: 'X'.repeat(11) }, 400, 'INVALID_CURRENCY'],
      [{ description: 'd'.repeat(201) }, 400, 'INVALID_DESCRIPTION'],
    ];
    for (const [overrides, code, errorCode] of cases) {
      const res = await initiate(initiateBody(fx, { date, ...overrides }));
      expect(res.statusCode, JSON.stringify(overrides)).toBe(code);
      expect(res.json(), JSON.stringify(overrides)).toMatchObject({
        code: errorCode,
        message: expect.any(String),
      });
    }
    const slotOfOther = await initiate(initiateBody(fx, { date, slot_id: fx.otherSlotId }));
    expect(slotOfOther.json()).toMatchObject({ code: 'SLOT_NOT_IN_SERVICE' });
    const noBody = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: '{"cus_name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(noBody.statusCode).toBe(400);
    // Every problem carries its own field's code; the first one is the answer's code.
    const empty = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    const body = empty.json() as {
      code: string;
      message: string;
      details: { path: string; code: string }[];
    };
    expect(body.code).toBe('INVALID_NAME');
    expect(body.message).toMatch(/^cus_name: /);
    expect(Object.fromEntries(body.details.map((d) => [d.path, d.code]))).toMatchObject({
      cus_name: 'INVALID_NAME',
      cus_email: 'INVALID_EMAIL',
      phone_number: 'INVALID_PHONE',
      amount: 'INVALID_AMOUNT',
      reference: 'INVALID_REFERENCE',
      service_id: 'INVALID_ID',
      date: 'INVALID_DATE',
    });
    const notAnObject = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expect(notAnObject.json()).toMatchObject({ code: 'INVALID_BODY' });
    const after = await database.db
      .selectFrom('bookings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // A slot later today is still bookable (10:00 is slot 12).
    expect(
      (await initiate(initiateBody(fx, { date: '2026-03-04', slotIndex: 12 }))).statusCode,
    ).toBe(201);
  });

  it('answers text the database cannot store with 400, not 500', async () => {
    const res = await initiate(
      initiateBody(fx, { date: nextDate(), cus_name: 'Ngono\u0000Marie' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const contact = await app.inject({
      method: 'POST',
      url: '/api/v1/contact',
      payload: { user_name: 'Mairie\u0000', user_email: 'mairie@example.cm' },
    });
    expect(contact.statusCode).toBe(400);
    const cb = await app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/simulator?status=SUCCESSFUL&reference=x%00y&signature=bad`,
    });
    expect(cb.statusCode).toBe(401);
  });

  it('two identical requests sent at once get the same payment', async () => {
    const body = initiateBody(fx, { date: nextDate() });
    const [a, b] = await Promise.all([initiate(body), initiate(body)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().payment.payment_id).toBe(b.json().payment.payment_id);
  });

  it('treats the reference as an idempotency key', async () => {
    const body = initiateBody(fx, { date: nextDate() });
    const first = await initiate(body);
    expect(first.statusCode).toBe(201);
    const again = await initiate(body);
    expect(again.statusCode).toBe(200);
    expect(again.json().payment.payment_id).toBe(first.json().payment.payment_id);
    const conflict = await initiate({ ...body, cus_name: 'Someone Else' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ code: 'REFERENCE_CONFLICT' });
  });

  it('refuses a taken slot with 409 SLOT_TAKEN', async () => {
    const date = nextDate();
    expect((await initiate(initiateBody(fx, { date }))).statusCode).toBe(201);
    const second = await initiate(initiateBody(fx, { date, phone_number: '690111222' }));
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'SLOT_TAKEN' });
  });

  it('200 concurrent initiations for one slot and date: exactly one wins', async () => {
    const date = nextDate();
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        initiate(
          initiateBody(fx, {
            date,
            slotIndex: 5,
            phone_number: `6770${String(i).padStart(5, '0')}`,
          }),
        ),
      ),
    );
    const elapsed = performance.now() - started;
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(199);
    expect(
      results.filter((r) => r.statusCode === 409).every((r) => r.json().code === 'SLOT_TAKEN'),
    ).toBe(true);
    const active = await database.db
      .selectFrom('bookings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('slot_id', '=', fx.slotIds[5] as string)
      .where('booking_date', '=', date)
      .where('status', 'in', ['held', 'confirmed', 'checked_in'])
      .executeTakeFirstOrThrow();
    expect(Number(active.n)).toBe(1);
    console.info(
      `[contention] ${engine}: 200 concurrent initiations → 1 × 201, 199 × 409 in ${elapsed.toFixed(0)} ms`,
    );
  });

  it('a decline releases the hold', async () => {
    const date = nextDate();
    const res = await initiate(initiateBody(fx, { date, phone_number: '677123000' }));
    const id = res.json().payment.payment_id as string;
    expect((await callback(id, 'FAILED', { code: 'ER301' })).json()).toMatchObject({
      outcome: 'failed',
    });
    expect(await status(id)).toMatchObject({
      status: 'FAILED',
      ticket: null,
      failure_code: 'ER301',
    });
    expect(await taken(date)).toEqual([]);
    expect((await initiate(initiateBody(fx, { date }))).statusCode).toBe(201);
  });

  it('forged, duplicate and out-of-order callbacks change nothing', async () => {
    const date = nextDate();
    const id = (await initiate(initiateBody(fx, { date }))).json().payment.payment_id as string;
    const forgedSig = await new SignJWT({ status: 'SUCCESSFUL' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('not-the-key-not-the-key-not-the-key'));
    const forged = await callback(id, 'SUCCESSFUL', {}, forgedSig);
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'INVALID_SIGNATURE' });
    const unsigned = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/callback/simulator',
      payload: { status: 'SUCCESSFUL', external_reference: id },
    });
    expect(unsigned.statusCode).toBe(401);
    expect((await status(id)).status).toBe('PENDING');

    expect((await callback(id, 'SUCCESSFUL')).json()).toMatchObject({ outcome: 'confirmed' });
    const ticketBefore = (await status(id)).ticket?.code;
    expect((await callback(id, 'SUCCESSFUL')).json()).toMatchObject({ outcome: 'duplicate' });
    const late = await callback(id, 'FAILED');
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({ outcome: 'duplicate' });
    const after = await status(id);
    expect(after.status).toBe('SUCCESSFUL');
    expect(after.ticket?.code).toBe(ticketBefore);

    const log = await database.db
      .selectFrom('payment_events')
      .select(['outcome', 'signature_valid'])
      .where('payment_id', '=', id)
      .orderBy('received_at')
      .execute();
    expect(log.map((l) => l.outcome)).toEqual(['confirmed', 'duplicate', 'duplicate']);
    const rejected = await database.db
      .selectFrom('payment_events')
      .select('outcome')
      .where('outcome', '=', 'rejected_signature')
      .execute();
    expect(rejected.length).toBeGreaterThanOrEqual(2);
  });

  it('a success for the wrong amount is not confirmed and is recorded for refund', async () => {
    const date = nextDate();
    const id = (await initiate(initiateBody(fx, { date }))).json().payment.payment_id as string;
    expect((await callback(id, 'SUCCESSFUL', { amount: '1' })).json()).toMatchObject({
      outcome: 'amount_mismatch',
    });
    expect(await status(id)).toMatchObject({
      status: 'FAILED',
      failure_code: 'AMOUNT_MISMATCH',
      ticket: null,
    });
    const row = await database.db
      .selectFrom('payments')
      .select(['needs_refund', 'refund_reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.needs_refund).toBe(true);
    expect(row.refund_reason).toContain('AMOUNT_MISMATCH');
  });

  it('a payment that succeeds after its hold lapsed: confirmed while the slot is free, refund record when it is not', async () => {
    const date = nextDate();
    // Numbers ending in 999 never settle on their own, so the sweep only lapses the holds.
    const a = (
      await initiate(initiateBody(fx, { date, slotIndex: 8, phone_number: '677100999' }))
    ).json().payment.payment_id as string;
    const b = (
      await initiate(initiateBody(fx, { date, slotIndex: 9, phone_number: '677200999' }))
    ).json().payment.payment_id as string;
    clock.advance(11 * 60_000);
    try {
      const swept = await app.payments.reconciler.sweep();
      expect(swept.expiredHolds).toBeGreaterThanOrEqual(2);
      expect(await taken(date)).toEqual([]);
      // Slot 9 is taken by someone else meanwhile.
      expect(
        (await initiate(initiateBody(fx, { date, slotIndex: 9, phone_number: '699887766' })))
          .statusCode,
      ).toBe(201);

      expect((await callback(a, 'SUCCESSFUL')).json()).toMatchObject({
        outcome: 'confirmed_after_hold_lapsed',
      });
      expect((await status(a)).ticket).not.toBeNull();

      expect((await callback(b, 'SUCCESSFUL')).json()).toMatchObject({ outcome: 'refund_due' });
      const paid = await database.db
        .selectFrom('payments')
        .select(['status', 'needs_refund', 'refund_reason'])
        .where('id', '=', b)
        .executeTakeFirstOrThrow();
      expect(paid).toEqual({
        status: 'SUCCESSFUL',
        needs_refund: true,
        refund_reason: 'SLOT_TAKEN_AFTER_HOLD_LAPSED',
      });
      expect((await status(b)).ticket).toBeNull();
    } finally {
      clock.advance(-11 * 60_000);
    }
  });

  it('gives up on a payment that never settles, and records a late success for refund', async () => {
    const date = nextDate();
    const id = (await initiate(initiateBody(fx, { date, phone_number: '677123999' }))).json()
      .payment.payment_id as string;
    clock.advance(31 * 60_000);
    try {
      const swept = await app.payments.reconciler.sweep();
      expect(swept.expiredPayments).toBeGreaterThanOrEqual(1);
      expect(await status(id)).toMatchObject({ status: 'FAILED', failure_code: 'EXPIRED' });
      expect((await callback(id, 'SUCCESSFUL')).json()).toMatchObject({ outcome: 'refund_due' });
      const row = await database.db
        .selectFrom('payments')
        .select(['status', 'needs_refund'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'FAILED', needs_refund: true });
    } finally {
      clock.advance(-31 * 60_000);
    }
  });

  it('answers unknown payments, tickets and providers with codes', async () => {
    const unknown = await app.inject({
      method: 'GET',
      url: '/api/v1/payment/00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'PAYMENT_NOT_FOUND' });
    expect((await app.inject({ method: 'GET', url: '/api/v1/payment/xyz' })).json()).toMatchObject({
      code: 'INVALID_ID',
    });
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/tickets/QL-2222-22' })).statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/tickets/hello' })).json(),
    ).toMatchObject({ code: 'INVALID_TICKET' });
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/v1/payment/callback/paypal?status=SUCCESSFUL',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ method: 'POST', url: '/api/v1/tickets/verify', payload: {} })).statusCode,
    ).toBe(400);
  });
});
