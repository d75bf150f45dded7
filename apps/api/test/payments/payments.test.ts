import { paymentResponseSchema, ticketLookupResponseSchema } from '@qless/contract';
import { describe, expect, inject, it } from 'vitest';
import { signedIn } from '../support/auth-helpers.js';
import { initiateBody } from '../support/fixtures.js';
import { useSimulatorApp } from '../support/simulator-harness.js';

describe('payment initiation with the simulator', () => {
  const h = useSimulatorApp();

  it('holds the slot, settles through a signed callback, confirms with a ticket', async () => {
    const date = h.nextDate();
    const res = await h.initiate(initiateBody(h.fx, { date, slotIndex: 3 }));
    expect(res.statusCode).toBe(201);
    const { payment } = paymentResponseSchema.parse(res.json());
    expect(payment).toMatchObject({
      status: 'PENDING',
      amount: 2,
      currency: 'XAF',
      provider: 'simulator',
    });
    expect(new Date(payment.hold_expires_at).getTime() - h.clock.now().getTime()).toBe(10 * 60_000);
    // Held counts as taken at once.
    expect(await h.taken(date)).toEqual([h.fx.slotIds[3]]);
    const booking = await h.database.db
      .selectFrom('bookings')
      .selectAll()
      .where('id', '=', payment.booking_id)
      .executeTakeFirstOrThrow();
    expect(booking).toMatchObject({
      status: 'held',
      phone_number: '+237677123456',
      booking_date: date,
    });

    const cb = await h.callback(payment.payment_id, 'SUCCESSFUL');
    expect(cb.statusCode).toBe(200);
    expect(cb.json()).toEqual({ ok: true, outcome: 'confirmed' });
    const s = await h.status(payment.payment_id);
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
    // 12 letters of 30 (59 bits): guessing a live code is hopeless at the look-up limits.
    expect(s.ticket?.code).toMatch(
      /^QL-[2-9A-HJKMNP-TV-Z]{4}-[2-9A-HJKMNP-TV-Z]{4}-[2-9A-HJKMNP-TV-Z]{4}$/,
    );
    expect(await h.taken(date)).toEqual([h.fx.slotIds[3]]);

    // The code alone: where, when and whether it stands; nothing personal, never the token.
    const byCode = await h.app.inject({ method: 'GET', url: `/api/v1/tickets/${s.ticket?.code}` });
    expect(byCode.statusCode).toBe(200);
    expect(byCode.headers['cache-control']).toBe('no-store');
    expect(byCode.json()).toEqual({
      ticket: {
        code: s.ticket?.code,
        organization: s.ticket?.organization,
        location: 'Rue Joss, Bonanjo, Douala',
        service: s.ticket?.service,
        service_fr: null,
        date,
        time: '07:45',
        time_zone: 'Africa/Douala',
        status: 'confirmed',
      },
    });
    const { ticket } = ticketLookupResponseSchema.parse(byCode.json());
    expect(byCode.body).not.toContain('Ngono');
    expect(byCode.body).not.toContain(String(s.ticket?.token));

    // Staff verify the QR token the payer was given (signed in; the ticket is for a later day).
    const token = String(s.ticket?.token);
    const unsigned = await h.app.inject({
      method: 'POST',
      url: '/api/v1/tickets/verify',
      payload: { token },
    });
    expect(unsigned.statusCode).toBe(401);
    const staff = await signedIn(h.app, h.database.db, {
      email: 'counter@guichet.cm',
      role: 'staff',
      organizationId: h.fx.orgId,
    });
    const verify = await h.app.inject({
      method: 'POST',
      url: '/api/v1/tickets/verify',
      headers: staff.headers,
      payload: { token },
    });
    expect(verify.headers['cache-control']).toBe('no-store');
    expect(verify.json()).toMatchObject({
      valid: false,
      reason: 'NOT_TODAY',
      date,
      booking_status: 'confirmed',
      ticket: { code: ticket.code },
    });
    const forged = `${token.slice(0, -4)}AAAA`;
    const bad = await h.app.inject({
      method: 'POST',
      url: '/api/v1/tickets/verify',
      headers: staff.headers,
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
      const date = h.nextDate();
      const res = await h.initiate(initiateBody(h.fx, { date, phone_number: phone, amount }));
      expect(res.statusCode, String(phone)).toBe(201);
      const { payment } = paymentResponseSchema.parse(res.json());
      const row = await h.database.db
        .selectFrom('payments')
        .select('phone_number')
        .where('id', '=', payment.payment_id)
        .executeTakeFirstOrThrow();
      expect(row.phone_number).toBe('+237677123456');
    }
  });

  it('rejects bad input with a code and keeps nothing', async () => {
    const date = h.nextDate();
    const before = await h.database.db
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
      const res = await h.initiate(initiateBody(h.fx, { date, ...overrides }));
      expect(res.statusCode, JSON.stringify(overrides)).toBe(code);
      expect(res.json(), JSON.stringify(overrides)).toMatchObject({
        code: errorCode,
        message: expect.any(String),
      });
    }
    const slotOfOther = await h.initiate(initiateBody(h.fx, { date, slot_id: h.fx.otherSlotId }));
    expect(slotOfOther.json()).toMatchObject({ code: 'SLOT_NOT_IN_SERVICE' });
    const noBody = await h.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: '{"cus_name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(noBody.statusCode).toBe(400);
    // Every problem carries its own field's code; the first one is the answer's code.
    const empty = await h.app.inject({
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
    const fields = Object.fromEntries(body.details.map((d) => [d.path, d.code]));
    // The e-mail is optional (decision 121): its absence is no problem.
    expect(fields.cus_email).toBeUndefined();
    expect(fields).toMatchObject({
      cus_name: 'INVALID_NAME',
      phone_number: 'INVALID_PHONE',
      amount: 'INVALID_AMOUNT',
      reference: 'INVALID_REFERENCE',
      service_id: 'INVALID_ID',
      date: 'INVALID_DATE',
    });
    const notAnObject = await h.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expect(notAnObject.json()).toMatchObject({ code: 'INVALID_BODY' });
    const after = await h.database.db
      .selectFrom('bookings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // A slot later today is still bookable (10:00 is slot 12).
    expect(
      (await h.initiate(initiateBody(h.fx, { date: '2026-03-04', slotIndex: 12 }))).statusCode,
    ).toBe(201);
  });

  it('answers text the h.database cannot store with 400, not 500', async () => {
    const res = await h.initiate(
      initiateBody(h.fx, { date: h.nextDate(), cus_name: 'Ngono\u0000Marie' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const contact = await h.app.inject({
      method: 'POST',
      url: '/api/v1/contact',
      payload: { user_name: 'Mairie\u0000', user_email: 'mairie@example.cm' },
    });
    expect(contact.statusCode).toBe(400);
    const cb = await h.app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/simulator?status=SUCCESSFUL&reference=x%00y&signature=bad`,
    });
    expect(cb.statusCode).toBe(401);
  });

  it('two identical requests sent at once get the same payment', async () => {
    const body = initiateBody(h.fx, { date: h.nextDate() });
    const [a, b] = await Promise.all([h.initiate(body), h.initiate(body)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().payment.payment_id).toBe(b.json().payment.payment_id);
  });

  it('treats the reference as an idempotency key', async () => {
    const body = initiateBody(h.fx, { date: h.nextDate() });
    const first = await h.initiate(body);
    expect(first.statusCode).toBe(201);
    const again = await h.initiate(body);
    expect(again.statusCode).toBe(200);
    expect(again.json().payment.payment_id).toBe(first.json().payment.payment_id);
    const conflict = await h.initiate({ ...body, cus_name: 'Someone Else' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ code: 'REFERENCE_CONFLICT' });
  });

  it('a lapsed hold stops blocking its slot at the next initiation, before any sweep', async () => {
    const date = h.nextDate();
    // A number ending in 999 never settles: its hold lapses after HOLD_MINUTES (10).
    const first = await h.initiate(
      initiateBody(h.fx, { date, slotIndex: 7, phone_number: '677100999' }),
    );
    expect(first.statusCode).toBe(201);
    const held = await h.initiate(initiateBody(h.fx, { date, slotIndex: 7 }));
    expect(held.json()).toMatchObject({ code: 'SLOT_TAKEN' });
    h.clock.advance(11 * 60_000);
    try {
      const second = await h.initiate(
        initiateBody(h.fx, { date, slotIndex: 7, phone_number: '690123456' }),
      );
      expect(second.statusCode).toBe(201);
      const lapsed = await h.database.db
        .selectFrom('bookings')
        .select('status')
        .where('id', '=', first.json().payment.booking_id)
        .executeTakeFirstOrThrow();
      expect(lapsed.status).toBe('expired');
    } finally {
      h.clock.advance(-11 * 60_000);
    }
  });

  it('refuses a taken slot with 409 SLOT_TAKEN', async () => {
    const date = h.nextDate();
    expect((await h.initiate(initiateBody(h.fx, { date }))).statusCode).toBe(201);
    const second = await h.initiate(initiateBody(h.fx, { date, phone_number: '690111222' }));
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'SLOT_TAKEN' });
  });

  it('200 concurrent initiations for one slot and date: exactly one wins', async () => {
    const date = h.nextDate();
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        h.initiate(
          initiateBody(h.fx, {
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
    const active = await h.database.db
      .selectFrom('bookings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('slot_id', '=', h.fx.slotIds[5] as string)
      .where('booking_date', '=', date)
      .where('status', 'in', ['held', 'confirmed', 'checked_in'])
      .executeTakeFirstOrThrow();
    expect(Number(active.n)).toBe(1);
    console.info(
      `[contention] ${inject('engine')}: 200 concurrent initiations → 1 × 201, 199 × 409 in ${elapsed.toFixed(0)} ms`,
    );
  });
});
