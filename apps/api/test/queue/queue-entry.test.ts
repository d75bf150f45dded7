import type { JoinResponse, QueueTodayResponse } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { ticketLinkCode } from '../../src/core/access/ticket-links.js';
import { opensVisitTurn } from '../../src/core/access/visit-access.js';
import { gsmLength } from '../../src/providers/sms/sms-text.js';
import { SLOT, TODAY, useCounterApp } from '../support/checkin-helpers.js';
import { queueApi, queueSms } from '../support/queue-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

describe('entering the queue', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);

  const visitsOf = (bookingId: string) =>
    s.db.selectFrom('visits').selectAll().where('booking_id', '=', bookingId).execute();
  const today = async (headers: Record<string, string>) => {
    const res = await q.call('GET', '/queue/today', headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<QueueTodayResponse>();
  };

  it('a check-in puts the booking in line in its transaction: slot start, scan time, name, phone', async () => {
    const b = await s.book(ctx.a, { slot: SLOT.at0900, name: 'Ndzi Paul' });
    const res = await s.checkIn(ctx.staffA.headers, { code: b.code });
    expect(res.statusCode, res.body).toBe(200);
    const [visit, ...more] = await visitsOf(b.id);
    expect(more).toHaveLength(0);
    expect(visit).toMatchObject({
      source: 'booking',
      state: 'waiting',
      customer_name: 'Ndzi Paul',
      organization_id: ctx.a.orgId,
      service_id: ctx.a.serviceId,
      visit_date: TODAY,
      letter: 'A',
      number: 1,
    });
    // 09:00 in Douala is 08:00 UTC; the scan is now (09:30 Douala).
    expect(visit?.slot_start?.toISOString()).toBe('2026-03-04T08:00:00.000Z');
    expect(visit?.arrived_at.toISOString()).toBe(new Date(PINNED_NOW).toISOString());
    expect(visit?.queued_at.toISOString()).toBe(new Date(PINNED_NOW).toISOString());
    expect(visit?.phone).toMatch(/^\+2376770/);
    const booking = await s.db
      .selectFrom('bookings')
      .select(['status'])
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(booking.status).toBe('checked_in');
    // Scanned again: refused as before, and no second visit.
    expect((await s.checkIn(ctx.staffA.headers, { code: b.code })).statusCode).toBe(409);
    expect(await visitsOf(b.id)).toHaveLength(1);
    const day = await today(ctx.staffA.headers);
    const shown = day.visits.find((v) => v.booking_id === b.id);
    expect(shown).toMatchObject({ number: 'A-001', ticket_code: b.code, position: 1 });
    // No counter open yet: no estimate (decision 120).
    expect(shown?.estimate).toBeNull();
  });

  it('offline scans enter in scan order, and an earlier scan moves the arrival', async () => {
    const first = await s.book(ctx.b, { slot: SLOT.at0930 });
    const second = await s.book(ctx.b, { slot: SLOT.at0930 });
    const sync = (items: unknown[]) =>
      q.call('POST', '/organization/checkins/sync', ctx.staffB.headers, { items });
    // Sent in reverse: the earlier scan still enters first.
    const res = await sync([
      { code: second.code, scanned_at: '2026-03-04T08:20:00Z', client_id: crypto.randomUUID() },
      { code: first.code, scanned_at: '2026-03-04T08:10:00Z', client_id: crypto.randomUUID() },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [v1] = await visitsOf(first.id);
    const [v2] = await visitsOf(second.id);
    expect(v1?.arrived_at.toISOString()).toBe('2026-03-04T08:10:00.000Z');
    expect(v2?.arrived_at.toISOString()).toBe('2026-03-04T08:20:00.000Z');
    expect((v1?.number ?? 0) < (v2?.number ?? 0)).toBe(true);
    // Another device scanned the second one earlier, offline: the first real scan wins.
    const again = await sync([
      { code: second.code, scanned_at: '2026-03-04T08:05:00Z', client_id: crypto.randomUUID() },
    ]);
    expect(again.json().results[0].result).toBe('checked_in');
    const [moved, ...none] = await visitsOf(second.id);
    expect(none).toHaveLength(0);
    expect(moved?.arrived_at.toISOString()).toBe('2026-03-04T08:05:00.000Z');
  });

  it('staff add walk-ins: a letter per service (first free), numbers per letter and day', async () => {
    const a1 = await q.walkIn(ctx.staffA.headers, ctx.a.otherServiceId, 'Mbarga Jean');
    const a2 = await q.walkIn(ctx.staffA.headers, ctx.a.otherServiceId, 'Eto Anne', '677 00 00 01');
    expect(a1).toMatchObject({ number: 'B-001', source: 'staff', state: 'waiting', phone: null });
    expect(a2).toMatchObject({ number: 'B-002', phone: '+237677000001' });
    // The first service kept its A (given at the first check-in).
    const a3 = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Fouda Luc');
    expect(a3.number).toMatch(/^A-\d{3}$/);
    // Another organization's service is not found.
    const foreign = await q.call('POST', '/queue/visits', ctx.staffA.headers, {
      service_id: ctx.b.serviceId,
      name: 'X',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('SERVICE_NOT_FOUND');
    const bad = await q.call('POST', '/queue/visits', ctx.staffA.headers, {
      service_id: ctx.a.serviceId,
      name: 'X',
      phone: '12',
    });
    expect(bad.statusCode).toBe(400);
    expect((await q.call('POST', '/queue/visits', null, {})).statusCode).toBe(401);
  });

  it('the admin chooses a letter: unique in the organization, numbers of the new letter start at 1', async () => {
    const taken = await q.call(
      'PUT',
      `/queue/services/${ctx.a.otherServiceId}/letter`,
      ctx.adminA.headers,
      { letter: 'A' },
    );
    expect(taken.statusCode).toBe(409);
    const staff = await q.call(
      'PUT',
      `/queue/services/${ctx.a.otherServiceId}/letter`,
      ctx.staffA.headers,
      { letter: 'C' },
    );
    expect(staff.statusCode).toBe(403);
    const foreign = await q.call(
      'PUT',
      `/queue/services/${ctx.b.serviceId}/letter`,
      ctx.adminA.headers,
      { letter: 'Q' },
    );
    expect(foreign.statusCode).toBe(404);
    const ok = await q.call(
      'PUT',
      `/queue/services/${ctx.a.otherServiceId}/letter`,
      ctx.adminA.headers,
      { letter: 'C' },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    const v = await q.walkIn(ctx.staffA.headers, ctx.a.otherServiceId, 'Abena Rose');
    expect(v.number).toBe('C-001');
    expect(
      (
        await q.call('PUT', `/queue/services/${ctx.a.otherServiceId}/letter`, ctx.adminA.headers, {
          letter: 'c',
        })
      ).statusCode,
    ).toBe(400);
  });

  it('the join page: off by default, then open hours only, with the visit key in the answer', async () => {
    const url = `/join/${ctx.a.orgId}`;
    const info = await q.call('GET', url, null);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json()).toMatchObject({ enabled: false, open: true });
    const body = {
      service_id: ctx.a.serviceId,
      name: 'Nana Awa',
      phone: '699000001',
      locale: 'en',
    };
    const off = await q.call('POST', url, null, body, '10.1.0.1');
    expect(off.statusCode).toBe(403);
    expect(off.json().code).toBe('JOIN_DISABLED');

    const settings = await q.call('GET', '/queue/settings', ctx.adminA.headers);
    const put = await q.call('PUT', '/queue/settings', ctx.adminA.headers, {
      ...settings.json().settings,
      join_enabled: true,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(
      (await q.call('PUT', '/queue/settings', ctx.staffA.headers, put.json().settings)).statusCode,
    ).toBe(403);

    const joined = await q.call('POST', url, null, body, '10.1.0.2');
    expect(joined.statusCode, joined.body).toBe(201);
    const answer = joined.json<JoinResponse>();
    expect(answer.turn).toMatchObject({ state: 'waiting', organization_name: expect.any(String) });
    expect(answer.turn.number).toMatch(/^A-\d{3}$/);
    expect(answer.turn.position).toBeGreaterThan(0);
    expect(answer.key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(s.app.visitAccess.verify(answer.turn.visit_id, answer.key)).toBe(true);
    expect(s.app.visitAccess.verify(answer.turn.visit_id, `${answer.key.slice(1)}x`)).toBe(false);
    const row = await s.db
      .selectFrom('visits')
      .selectAll()
      .where('id', '=', answer.turn.visit_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ source: 'self', locale: 'en', client_address: '10.1.0.2' });

    // Unknown service, unknown organization.
    const wrong = await q.call(
      'POST',
      url,
      null,
      { ...body, service_id: ctx.b.serviceId },
      '10.1.0.3',
    );
    expect(wrong.statusCode).toBe(404);
    expect((await q.call('GET', `/join/${crypto.randomUUID()}`, null)).statusCode).toBe(404);

    // After closing time (18:00 Douala): closed.
    s.clock.set('2026-03-04T17:30:00Z');
    try {
      expect((await q.call('GET', url, null)).json().open).toBe(false);
      const late = await q.call('POST', url, null, body, '10.1.0.4');
      expect(late.statusCode).toBe(409);
      expect(late.json().code).toBe('QUEUE_CLOSED');
    } finally {
      s.clock.set(PINNED_NOW);
    }
  });

  it('join limits: 5 an hour from one address, 3 a day per phone (429 TOO_MANY_VISITS with retry-after)', async () => {
    const url = `/join/${ctx.a.orgId}`;
    const join = (ip: string, phone?: string) =>
      q.call(
        'POST',
        url,
        null,
        { service_id: ctx.a.serviceId, name: 'Limit', ...(phone ? { phone } : {}) },
        ip,
      );
    for (let i = 0; i < 5; i += 1) expect((await join('10.2.0.1')).statusCode).toBe(201);
    const sixth = await join('10.2.0.1');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('TOO_MANY_VISITS');
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    for (let i = 0; i < 3; i += 1)
      expect((await join(`10.3.0.${i}`, '655000111')).statusCode).toBe(201);
    const fourth = await join('10.3.0.9', '+237 655 000 111');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().code).toBe('TOO_MANY_VISITS');
  });

  it('numbers stop at 999 a letter a day: 409 QUEUE_FULL, nothing half-made', async () => {
    const fx = ctx.b;
    const first = await q.walkIn(ctx.staffB.headers, fx.otherServiceId, 'First');
    const letter = first.number.slice(0, 1);
    await s.db
      .updateTable('visit_numbers')
      .set({ last_number: 999 })
      .where('organization_id', '=', fx.orgId)
      .where('letter', '=', letter)
      .execute();
    const before = await s.db
      .selectFrom('visits')
      .select('id')
      .where('organization_id', '=', fx.orgId)
      .execute();
    const full = await q.call('POST', '/queue/visits', ctx.staffB.headers, {
      service_id: fx.otherServiceId,
      name: 'Too many',
    });
    expect(full.statusCode).toBe(409);
    expect(full.json().code).toBe('QUEUE_FULL');
    const after = await s.db
      .selectFrom('visits')
      .select('id')
      .where('organization_id', '=', fx.orgId)
      .execute();
    expect(after).toHaveLength(before.length);
  });

  it('SMS: "you are N-th" once when within the notify position, "go to counter" once when called; GSM-7, one part', async () => {
    const fx = ctx.b;
    await s.db
      .updateTable('visits')
      .set({ state: 'left' })
      .where('organization_id', '=', fx.orgId)
      .execute();
    const counter = await q.openCounter((await adminOf('b')).headers, 'Guichet 3', [fx.serviceId]);
    const phones = ['+237690000001', '+237690000002', '+237690000003', '+237690000004'];
    const visits = [];
    for (const [i, phone] of phones.entries()) {
      // A minute apart: first come, first served needs distinct arrivals (the pinned clock).
      s.clock.advance(60_000);
      visits.push(
        await q.walkIn(ctx.staffB.headers, fx.serviceId, `P${i}`, phone, i === 0 ? 'en' : 'fr'),
      );
    }
    // Default notify position 3: the first three are told at once, the fourth not yet.
    let sms = await queueSms(s.db);
    const near = () =>
      sms
        .filter((m) => m.kind === 'queue_near' && phones.includes(m.to_address))
        .map((m) => m.to_address);
    expect(near().sort()).toEqual(phones.slice(0, 3));
    const call = await q.act(ctx.staffB.headers, counter.counter_id, 'call-next');
    expect(call.statusCode, call.body).toBe(200);
    expect(call.json().visit.visit_id).toBe(visits[0]?.visit_id);
    // The called one's "go to counter" is queued with the call itself.
    sms = await queueSms(s.db);
    expect(sms.filter((m) => m.kind === 'queue_called').map((m) => m.to_address)).toEqual([
      phones[0],
    ]);
    // The fourth is now third: told right after the answer (line-settler.ts).
    await expect
      .poll(
        async () => {
          sms = await queueSms(s.db);
          return near().sort();
        },
        { timeout: 5_000 },
      )
      .toEqual(phones);
    const called = sms.filter((m) => m.kind === 'queue_called');
    expect(called.map((m) => m.to_address)).toEqual([phones[0]]);
    expect(called[0]?.text_body).toContain('Guichet 3');
    expect(called[0]?.text_body).toContain(visits[0]?.number);
    expect(called[0]?.locale).toBe('en');
    // A recall sends nothing more.
    expect((await q.act(ctx.staffB.headers, counter.counter_id, 'recall')).statusCode).toBe(200);
    expect(await queueSms(s.db)).toHaveLength(sms.length);
    for (const m of (await queueSms(s.db)).filter((x) => phones.includes(x.to_address))) {
      const length = gsmLength(m.text_body ?? '');
      expect(length, m.text_body ?? '').not.toBeNull();
      expect(length ?? 999).toBeLessThanOrEqual(160);
      expect(m.text_body).toMatch(
        /http:\/\/qless\.test\/visit\/[0-9a-f-]{36}#k=[A-Za-z0-9_-]{22}$/,
      );
      expect(m.dedupe_key).toMatch(/^visit:[0-9a-f-]{36}:(near|called:\d+)$/);
    }
    const fr = (await queueSms(s.db, phones[1])).find((m) => m.kind === 'queue_near');
    // The service's letter is the one planned for it (decision 119), not the first visited's A.
    expect(fr?.text_body?.startsWith(`${visits[1]?.number} : vous etes `)).toBe(true);
  });

  it("a booked visitor with a phone is told with the ticket's short link", async () => {
    const b = await s.book(ctx.a, { slot: SLOT.at0930 });
    await s.db
      .updateTable('visits')
      .set({ state: 'left' })
      .where('organization_id', '=', ctx.a.orgId)
      .execute();
    const code = await ticketLinkCode(s.db, b.id);
    // The near SMS waits for a counter of the service to be open (decision 120).
    await q.openCounter(ctx.adminA.headers, 'Guichet 4', [ctx.a.serviceId]);
    expect((await s.checkIn(ctx.staffA.headers, { code: b.code })).statusCode).toBe(200);
    const [visit] = await visitsOf(b.id);
    const sms = await queueSms(s.db, visit?.phone ?? '');
    expect(sms.map((m) => m.kind)).toEqual(['queue_near']);
    // The booking's short link (decision 141), made when a payment confirms it (the fixture
    // made it here), which opens its ticket page with the key.
    const linkCode = /\/t\/([0-9A-Z]{12})$/.exec(sms[0]?.text_body ?? '')?.[1] ?? '';
    expect(linkCode).toBe(code);
    const opened = await s.app.inject({ method: 'GET', url: `/t/${linkCode}` });
    expect(opened.headers.location).toBe(
      `/ticket/${b.code}#k=${encodeURIComponent(s.app.payments.access.keyFor(b.id))}`,
    );
    // Its turn opens with the booking's key as well as the visit's own; not another's.
    const access = { visits: s.app.visitAccess, bookings: s.app.payments.access };
    const row = visit as NonNullable<typeof visit>;
    expect(opensVisitTurn(row, s.app.payments.access.keyFor(b.id), access)).toBe(true);
    expect(opensVisitTurn(row, s.app.visitAccess.keyFor(row.id), access)).toBe(true);
    expect(opensVisitTurn(row, s.app.visitAccess.keyFor(b.id), access)).toBe(false);
    expect(
      opensVisitTurn({ ...row, booking_id: null }, s.app.payments.access.keyFor(b.id), access),
    ).toBe(false);
  });

  async function adminOf(which: 'b') {
    const { signedIn } = await import('../support/auth-helpers.js');
    return signedIn(s.app, s.db, {
      email: `admin-${which}-${Math.random().toString(36).slice(2)}@x.cm`,
      role: 'org_admin',
      organizationId: which === 'b' ? ctx.b.orgId : ctx.a.orgId,
    });
  }
});
