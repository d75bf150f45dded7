import { base64url } from 'jose';
import { describe, expect, it } from 'vitest';
import { markCheckedIn } from '../../src/modules/bookings/bookings.repository.js';
import {
  LEGACY_KEY,
  SLOT,
  TODAY,
  TOMORROW,
  useCounterApp,
  YESTERDAY,
} from '../support/checkin-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

describe('check-in at the counter', () => {
  const h = useCounterApp();
  const { ctx } = h;
  const at = (hhmm: string, date = TODAY) => h.clock.set(`${date}T${hhmm}:00+01:00`);

  it('publishes the Ed25519 public key, cacheable, and nothing private', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/tickets/public-key' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/public, max-age=\d+/);
    const { keys } = res.json();
    expect(keys).toEqual([
      {
        kty: 'OKP',
        crv: 'Ed25519',
        x: expect.any(String),
        kid: expect.any(String),
        alg: 'EdDSA',
        use: 'sig',
      },
    ]);
  });

  it('needs a counter session to verify or check in (401), and answers nothing about a ticket without one', async () => {
    const b = await h.book(ctx.a);
    const token = await h.token(b);
    for (const res of [await h.verify(null, token), await h.checkIn(null, { token })]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(res.body).not.toContain(b.name);
    }
    const garbage = { authorization: `Bearer ${'x'.repeat(43)}` };
    expect((await h.checkIn(garbage, { code: b.code })).statusCode).toBe(401);
  });

  it('verifies an EdDSA token read-only: OK for its own staff today, masked, and still OK after', async () => {
    at('09:30');
    const b = await h.book(ctx.a, { name: 'Ngono Marie' });
    const res = await h.verify(ctx.staffA.headers, await h.token(b));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({
      valid: true,
      reason: 'OK',
      booking_status: 'confirmed',
      date: TODAY,
      checked_in_at: null,
      ticket: { code: b.code, customer_name: 'Ngono Marie', email: expect.stringContaining('•••') },
    });
    // Verifying changed nothing.
    expect((await h.verify(ctx.staffA.headers, await h.token(b))).json()).toMatchObject({
      valid: true,
    });
  });

  it('refuses staff of another organization with WRONG_ORGANIZATION and none of its data', async () => {
    const b = await h.book(ctx.b, { name: 'Tchoupo Bernadette' });
    const token = await h.token(b);
    const verify = await h.verify(ctx.staffA.headers, token);
    expect(verify.json()).toEqual({
      valid: false,
      reason: 'WRONG_ORGANIZATION',
      ticket: null,
      booking_status: null,
      date: null,
      checked_in_at: null,
      checked_in_time: null,
    });
    const res = await h.checkIn(ctx.staffA.headers, { token });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'WRONG_ORGANIZATION',
      reason: 'WRONG_ORGANIZATION',
      booking: null,
      date: null,
    });
    expect(res.body).not.toMatch(/Tchoupo|customer\d+@|6770/);
    // A typed code of another organization is answered as one that does not exist.
    const typed = await h.checkIn(ctx.staffA.headers, { code: b.code });
    const none = await h.checkIn(ctx.staffA.headers, { code: 'QL-2222-3333-4444' });
    expect(none.statusCode).toBe(404);
    expect(typed.statusCode).toBe(404);
    expect(typed.json()).toEqual(none.json());
    // B's own staff may; it is still confirmed.
    expect((await h.verify(ctx.staffB.headers, token)).json()).toMatchObject({ valid: true });
  });

  it('checks today’s ticket in once; the second scan is told when (local time)', async () => {
    at('09:58');
    const b = await h.book(ctx.a, { slot: SLOT.at1000, name: 'Atangana Joseph' });
    const token = await h.token(b);
    const first = await h.checkIn(ctx.staffA.headers, { token });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      result: 'checked_in',
      booking: {
        booking_id: b.id,
        status: 'checked_in',
        time: '10:00',
        checked_in_at: '2026-03-04T08:58:00.000Z',
        checked_in_time: '09:58',
      },
    });
    const row = await h.db
      .selectFrom('bookings')
      .select(['status', 'checked_in_by', 'status_changed_at'])
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      status: 'checked_in',
      checked_in_by: ctx.staffA.id,
      status_changed_at: new Date('2026-03-04T08:58:00Z'),
    });

    at('10:20');
    // By the typed code this time (any case, no dashes), by another counter.
    const second = await h.checkIn(ctx.adminA.headers, {
      code: b.code.toLowerCase().replaceAll('-', ''),
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      code: 'ALREADY_CHECKED_IN',
      reason: 'ALREADY_CHECKED_IN',
      checked_in_at: '2026-03-04T08:58:00.000Z',
      checked_in_time: '09:58',
      booking: { cus_name: 'Atangana Joseph' },
    });
    expect((await h.verify(ctx.staffA.headers, token)).json()).toMatchObject({
      valid: false,
      reason: 'ALREADY_CHECKED_IN',
      checked_in_time: '09:58',
    });
  });

  it('lets exactly one of many simultaneous scans of one ticket win', async () => {
    at('09:40');
    const b = await h.book(ctx.a);
    const token = await h.token(b);
    const tries = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        h.checkIn(
          i % 2 ? ctx.staffA.headers : ctx.adminA.headers,
          i % 3 ? { token } : { code: b.code },
        ),
      ),
    );
    const codes = tries.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, ...Array(15).fill(409)]);
    for (const r of tries.filter((t) => t.statusCode === 409)) {
      expect(r.json()).toMatchObject({ reason: 'ALREADY_CHECKED_IN', checked_in_time: '09:40' });
    }
    // The write itself is conditional: a counter that read "confirmed" just before another
    // checked the ticket in changes nothing (requests in one process rarely overlap enough).
    at('09:45');
    const late = await Promise.all(
      [ctx.staffA.id, ctx.adminA.id].map((by) =>
        markCheckedIn(
          h.db,
          {
            bookingId: b.id,
            organizationId: ctx.a.orgId,
            date: TODAY,
            at: h.clock.now(),
            by,
            clientId: null,
          },
          h.clock.now(),
        ),
      ),
    );
    expect(late).toEqual([false, false]);
    const fresh = await h.book(ctx.a);
    const race = await Promise.all(
      [ctx.staffA.id, ctx.adminA.id].map((by) =>
        markCheckedIn(
          h.db,
          {
            bookingId: fresh.id,
            organizationId: ctx.a.orgId,
            date: TODAY,
            at: h.clock.now(),
            by,
            clientId: null,
          },
          h.clock.now(),
        ),
      ),
    );
    expect(race.filter(Boolean)).toHaveLength(1);
    const row = await h.db
      .selectFrom('bookings')
      .select(['checked_in_at'])
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(row.checked_in_at).toEqual(new Date('2026-03-04T08:40:00Z'));
  });

  it('refuses another day’s ticket with its date, an unknown code, a forged token and alg=none', async () => {
    at('09:30');
    const tomorrow = await h.book(ctx.a, { date: TOMORROW });
    const res = await h.checkIn(ctx.staffA.headers, { token: await h.token(tomorrow) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'NOT_TODAY', date: TOMORROW });
    const yesterday = await h.book(ctx.a, { date: YESTERDAY });
    expect((await h.checkIn(ctx.staffA.headers, { code: yesterday.code })).json()).toMatchObject({
      reason: 'NOT_TODAY',
      date: YESTERDAY,
    });

    const unknown = await h.checkIn(ctx.staffA.headers, { code: 'QL-2222-3333-4444' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'UNKNOWN_TICKET' });
    const malformed = await h.checkIn(ctx.staffA.headers, { code: 'QL-0000' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'INVALID_TICKET' });

    const today = await h.book(ctx.a);
    const [header, payload, signature] = (await h.jwtToken(today)).split('.');
    // Another customer's ticket code in a validly shaped token: the signature no longer fits.
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(String(payload))));
    const swapped = base64url.encode(JSON.stringify({ ...claims, code: tomorrow.code }));
    const none = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    for (const token of [
      `${header}.${swapped}.${signature}`,
      `${none}.${payload}.`,
      `${none}.${payload}.${signature}`,
    ]) {
      const forged = await h.checkIn(ctx.staffA.headers, { token });
      expect(forged.statusCode).toBe(400);
      expect(forged.json()).toMatchObject({ code: 'INVALID_SIGNATURE', booking: null });
    }
    expect((await h.checkIn(ctx.staffA.headers, { token: 'a', code: today.code })).statusCode).toBe(
      400,
    );
    expect((await h.checkIn(ctx.staffA.headers, {})).statusCode).toBe(400);
  });

  it('reads the compact QR token (code + signature), the EdDSA JWT of older tickets, bare or in their link, and refuses a forged one', async () => {
    at('09:30');
    const b = await h.book(ctx.a, { name: 'Eyenga Paul' });
    const other = await h.book(ctx.a);
    const compact = await h.token(b);
    // Issue 18, point 6: the QR's text was a 471-character link; now 104 characters.
    expect(compact.length).toBeLessThanOrEqual(104);
    expect(compact.startsWith(`${b.code}.`)).toBe(true);
    const jwt = await h.jwtToken(b);
    const link = `https://qless.cm/#/ticket/${b.code}?t=${jwt}`;
    for (const token of [compact, ` ${compact}\n`, jwt, link]) {
      expect((await h.verify(ctx.staffA.headers, token)).json(), token).toMatchObject({
        valid: true,
        ticket: { code: b.code, customer_name: 'Eyenga Paul' },
      });
    }
    const signature = compact.slice(compact.indexOf('.') + 1);
    const swapped = `${other.code}.${signature}`;
    const flipped = `${b.code}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    for (const token of [swapped, flipped, `${b.code}.${'A'.repeat(86)}`]) {
      const forged = await h.checkIn(ctx.staffA.headers, { token });
      expect(forged.statusCode, token).toBe(400);
      expect(forged.json()).toMatchObject({ code: 'INVALID_SIGNATURE', booking: null });
    }
    const checked = await h.checkIn(ctx.staffA.headers, { token: compact });
    expect(checked.statusCode).toBe(200);
    expect(checked.json()).toMatchObject({ booking: { booking_id: b.id, status: 'checked_in' } });
  });

  it('keeps an old HS256 ticket valid on its day and refuses it once its date has passed', async () => {
    at('09:30');
    const old = await h.book(ctx.a, { date: TODAY });
    const oldTomorrow = await h.book(ctx.a, { date: TOMORROW });
    const oldYesterday = await h.book(ctx.a, { date: YESTERDAY });
    expect((await h.verify(ctx.staffA.headers, await h.legacyToken(old))).json()).toMatchObject({
      valid: true,
    });
    expect(
      (await h.verify(ctx.staffA.headers, await h.legacyToken(oldTomorrow))).json(),
    ).toMatchObject({ valid: false, reason: 'NOT_TODAY', date: TOMORROW });
    expect(
      (await h.verify(ctx.staffA.headers, await h.legacyToken(oldYesterday))).json(),
    ).toMatchObject({ valid: false, reason: 'INVALID_SIGNATURE', ticket: null });
    const checked = await h.checkIn(ctx.staffA.headers, { token: await h.legacyToken(old) });
    expect(checked.statusCode).toBe(200);
    // Signed with a key that is not ours: refused.
    const stranger = await h.legacyToken(oldTomorrow, `${LEGACY_KEY}-not`);
    expect((await h.verify(ctx.staffA.headers, stranger)).json()).toMatchObject({
      reason: 'INVALID_SIGNATURE',
    });

    // The next day, tomorrow's old ticket is today's; the day after, it has passed.
    at('08:00', TOMORROW);
    expect(
      (await h.verify(ctx.staffA.headers, await h.legacyToken(oldTomorrow))).json(),
    ).toMatchObject({ valid: true });
    h.clock.set('2026-03-06T07:00:00Z');
    expect(
      (await h.verify(ctx.staffA.headers, await h.legacyToken(oldTomorrow))).json(),
    ).toMatchObject({ valid: false, reason: 'INVALID_SIGNATURE' });
    // The same booking's Ed25519 ticket is not a key that expires: it is simply another day's.
    expect((await h.verify(ctx.staffA.headers, await h.token(oldTomorrow))).json()).toMatchObject({
      reason: 'NOT_TODAY',
    });
    h.clock.set(PINNED_NOW);
  });

  it('refuses a ticket in a state that cannot be checked in, with that state', async () => {
    at('09:30');
    for (const [status, reason] of [
      ['cancelled', 'BOOKING_CANCELLED'],
      ['no_show', 'BOOKING_NO_SHOW'],
      ['expired', 'BOOKING_EXPIRED'],
    ] as const) {
      const b = await h.book(ctx.a, { status });
      const res = await h.checkIn(ctx.staffA.headers, { code: b.code });
      expect(res.statusCode, status).toBe(409);
      expect(res.json()).toMatchObject({
        code: reason,
        booking: { status: status === 'expired' ? 'cancelled' : status },
      });
    }
  });

  it('lets an operator check in for the organization it names, and only then', async () => {
    at('09:30');
    const b = await h.book(ctx.b);
    expect((await h.checkIn(ctx.operator.headers, { code: b.code })).statusCode).toBe(400);
    const wrong = await h.checkIn(ctx.operator.headers, {
      code: b.code,
      organization_id: ctx.a.orgId,
    });
    expect(wrong.json()).toMatchObject({ reason: 'UNKNOWN_TICKET' });
    const ok = await h.checkIn(ctx.operator.headers, {
      code: b.code,
      organization_id: ctx.b.orgId,
    });
    expect(ok.statusCode).toBe(200);
    // Staff may not name another organization.
    const other = await h.book(ctx.b);
    const named = await h.checkIn(ctx.staffA.headers, {
      code: other.code,
      organization_id: ctx.b.orgId,
    });
    expect(named.statusCode).toBe(403);
    expect(named.json()).toMatchObject({ code: 'FORBIDDEN' });
  });
});
