import type { PushPayload } from '@qless/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VisitAccess } from '../../src/core/access/visit-access.js';
import { queueBookingMessages } from '../../src/modules/messages/messages.module.js';
import { eraseBookings } from '../../src/modules/privacy/personal-data.repository.js';
import { SLOT, useCounterApp } from '../support/checkin-helpers.js';
import { outboxWorker } from '../support/messages-helpers.js';
import {
  type FakePhone,
  type FakePushService,
  startPushServiceFake,
} from '../support/push-service-fake.js';
import { queueApi } from '../support/queue-helpers.js';

const SECOND = 1000;

/**
 * Web push, the free channel (decision 142), against a local push service that checks VAPID and
 * whose pushes the test decrypts with the phone's keys: a subscribed phone gets its turn by push
 * and no SMS once the service worker says it showed it; the SMS follows when it did not, and at
 * once when the push service says the subscription is gone.
 */
describe('web push before SMS', () => {
  let fake: FakePushService;
  beforeAll(async () => {
    fake = await startPushServiceFake();
  });
  afterAll(async () => {
    await fake?.close();
  });
  const s = useCounterApp(() => ({
    PUSH_SERVICE_ORIGINS: fake.origin,
    OUTBOX_WORKER_INTERVAL_MS: '3600000',
  }));
  const { ctx } = s;
  const q = queueApi(() => s.app);
  const worker = () => outboxWorker(s.app);
  const subscribe = (body: Record<string, unknown>, remoteAddress = '198.51.100.7') =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/push/subscriptions',
      payload: body,
      remoteAddress,
    });
  const shown = (receipt: string) =>
    s.app.inject({ method: 'POST', url: '/api/v1/push/shown', payload: { receipt } });
  const rowsOf = (visitId: string) =>
    s.db
      .selectFrom('outbox')
      .select(['channel', 'status', 'last_error', 'next_attempt_at', 'delivery', 'provider'])
      .where('dedupe_key', 'like', `visit:${visitId}:called:%`)
      .orderBy('channel')
      .execute();

  let counterId: string;
  beforeAll(async () => {
    const counter = await q.openCounter(ctx.adminA.headers, 'Guichet 3', [ctx.a.serviceId]);
    counterId = counter.counter_id;
  });

  /** A booking checked in now, a phone subscribed on its ticket page, and the counter's call. */
  async function calledWithPhone(name: string): Promise<{ visitId: string; phone: FakePhone }> {
    const booking = await s.book(ctx.a, { slot: SLOT.at0900, name });
    const key = s.app.payments.access.keyFor(booking.id);
    const phone = fake.phone(name.replace(/\W/g, ''));
    const res = await subscribe({
      about: { booking: booking.id },
      key,
      locale: 'fr',
      subscription: phone.subscription,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((await s.checkIn(ctx.staffA.headers, { code: booking.code })).statusCode).toBe(200);
    const call = await q.act(ctx.staffA.headers, counterId, 'call-next');
    expect(call.statusCode, call.body).toBe(200);
    const visit = await s.db
      .selectFrom('visits')
      .select('id')
      .where('booking_id', '=', booking.id)
      .executeTakeFirstOrThrow();
    return { visitId: visit.id, phone };
  }

  /** Ends the visit at the counter, so that the next call takes the next one. */
  const finish = async () => {
    expect((await q.act(ctx.staffA.headers, counterId, 'start')).statusCode).toBe(200);
    expect((await q.act(ctx.staffA.headers, counterId, 'done')).statusCode).toBe(200);
  };

  it('gives the VAPID public key, the same every time', async () => {
    const first = await s.app.inject({ method: 'GET', url: '/api/v1/push/key' });
    expect(first.statusCode).toBe(200);
    const { publicKey } = first.json<{ publicKey: string }>();
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const again = await s.app.inject({ method: 'GET', url: '/api/v1/push/key' });
    expect(again.json()).toEqual({ publicKey });
  });

  it('refuses a wrong key, a push service it does not know, and a malformed subscription', async () => {
    const booking = await s.book(ctx.a, { slot: SLOT.at0930 });
    const phone = fake.phone('refused');
    const body = {
      about: { booking: booking.id },
      key: s.app.payments.access.keyFor(booking.id),
      locale: 'en',
      subscription: phone.subscription,
    };
    const wrongKey = await subscribe({ ...body, key: 'not-the-key-of-this-booking' });
    expect(wrongKey.statusCode).toBe(403);
    expect(wrongKey.json().code).toBe('PUSH_NOT_FOLLOWED');
    const elsewhere = await subscribe({
      ...body,
      subscription: { ...phone.subscription, endpoint: 'http://169.254.169.254/latest/meta-data' },
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().code).toBe('PUSH_SERVICE_NOT_ALLOWED');
    const malformed = await subscribe({
      ...body,
      subscription: { endpoint: phone.subscription.endpoint, keys: { p256dh: 'x', auth: 'y' } },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('INVALID_PUSH_SUBSCRIPTION');
    expect(
      await s.db
        .selectFrom('push_subscriptions')
        .select('id')
        .where('about', '=', `booking:${booking.id}`)
        .execute(),
    ).toHaveLength(0);
  });

  it('pushes "go to the counter" at once; once shown, the SMS behind it is never sent', async () => {
    const { visitId, phone } = await calledWithPhone('Ngono Marie');
    const now = s.clock.now().getTime();
    const [push, sms] = await rowsOf(visitId);
    expect(push).toMatchObject({ channel: 'push', status: 'pending' });
    expect(push?.next_attempt_at?.getTime()).toBe(now);
    // The SMS waits the kind's minute behind the push.
    expect(sms).toMatchObject({ channel: 'sms', status: 'pending' });
    expect(sms?.next_attempt_at?.getTime()).toBe(now + 60 * SECOND);

    const before = fake.received.length;
    await worker().sweep();
    // "You are next" (from the check-in) and "go to the counter", both by push.
    const arrived = fake.received.slice(before).filter((p) => p.phone === 'NgonoMarie');
    const opened = arrived.map((p) => ({ push: p, payload: fake.open(p, phone) }));
    expect(opened.map((o) => o.push.ttl).sort((a, b) => a - b)).toEqual([600, 1200]);
    const called = opened.find((o) => o.payload.body.includes('Guichet 3'));
    if (!called) throw new Error('no "go to the counter" push');
    expect(called.push.urgency).toBe('high');
    // No longer than "go to the counter" is worth: 10 minutes.
    expect(called.push.ttl).toBe(600);
    const payload: PushPayload = called.payload;
    expect(payload.title).toMatch(/^A-\d{3} · /);
    expect(payload.body).toMatch(/Go to Guichet 3/);
    expect(payload.body).not.toContain('http');
    // The ticket page with its key (a booking paid before short links has only this link).
    expect(payload.url).toMatch(/\/ticket\/QL-[0-9A-Z-]+#k=[\w-]+$/);

    // Accepted by the push service is not delivered.
    expect((await rowsOf(visitId))[0]).toMatchObject({ status: 'sent', delivery: null });
    const res = await shown(payload.receipt);
    expect(res.statusCode, res.body).toBe(204);
    // Said twice (a retried report): nothing more.
    expect((await shown(payload.receipt)).statusCode).toBe(204);
    const [pushAfter, smsAfter] = await rowsOf(visitId);
    expect(pushAfter).toMatchObject({ delivery: 'delivered' });
    expect(smsAfter).toMatchObject({ status: 'skipped', last_error: 'delivered by push' });

    s.clock.advance(2 * 60 * SECOND);
    await worker().sweep();
    expect((await rowsOf(visitId))[1]).toMatchObject({ status: 'skipped' });
    await finish();
  });

  it('sends the SMS when the push was not shown within its minute', async () => {
    const { visitId } = await calledWithPhone('Mbarga Jean');
    await worker().sweep();
    expect((await rowsOf(visitId))[1]).toMatchObject({ channel: 'sms', status: 'pending' });
    s.clock.advance(59 * SECOND);
    await worker().sweep();
    expect((await rowsOf(visitId))[1]).toMatchObject({ status: 'pending' });
    s.clock.advance(1 * SECOND);
    await worker().sweep();
    expect((await rowsOf(visitId))[1]).toMatchObject({ status: 'sent', provider: 'simulator' });
    await finish();
  });

  it('sends the SMS at once when the push service says the phone is gone, and forgets the phone', async () => {
    fake.answerNext(410);
    const { visitId } = await calledWithPhone('Atangana Paul');
    await worker().sweep();
    const [push, sms] = await rowsOf(visitId);
    expect(push).toMatchObject({ status: 'failed' });
    expect(sms?.next_attempt_at?.getTime()).toBe(s.clock.now().getTime());
    const gone = await s.db
      .selectFrom('push_subscriptions')
      .select('gone_at')
      .where('endpoint', 'like', '%/AtanganaPaul')
      .executeTakeFirstOrThrow();
    expect(gone.gone_at).not.toBeNull();
    await worker().sweep();
    expect((await rowsOf(visitId))[1]).toMatchObject({ status: 'sent' });
    await finish();
  });

  it('a phone that says Stop is forgotten for the booking and its turn, which goes by SMS; a wrong key stops nothing', async () => {
    const booking = await s.book(ctx.a, { slot: SLOT.at0900, name: 'Ngo Bassa Claire' });
    const key = s.app.payments.access.keyFor(booking.id);
    const phone = fake.phone('NgoBassaClaire');
    const about = { booking: booking.id };
    expect(
      (await subscribe({ about, key, locale: 'fr', subscription: phone.subscription })).statusCode,
    ).toBe(201);
    // Checked in, the same phone also subscribed on the turn's page (the booking's key opens it).
    expect((await s.checkIn(ctx.staffA.headers, { code: booking.code })).statusCode).toBe(200);
    const visit = await s.db
      .selectFrom('visits')
      .select('id')
      .where('booking_id', '=', booking.id)
      .executeTakeFirstOrThrow();
    expect(
      (
        await subscribe({
          about: { visit: visit.id },
          key,
          locale: 'fr',
          subscription: phone.subscription,
        })
      ).statusCode,
    ).toBe(201);
    const stop = (body: Record<string, unknown>) =>
      s.app.inject({ method: 'POST', url: '/api/v1/push/unsubscribe', payload: body });
    const subscriptions = () =>
      s.db
        .selectFrom('push_subscriptions')
        .select('about')
        .where('about', 'in', [`booking:${booking.id}`, `visit:${visit.id}`])
        .execute();

    const wrongKey = await stop({
      about,
      key: 'x'.repeat(43),
      endpoint: phone.subscription.endpoint,
    });
    expect(wrongKey.statusCode).toBe(403);
    expect(wrongKey.json()).toMatchObject({ code: 'PUSH_NOT_FOLLOWED' });
    const badEndpoint = await stop({ about, key, endpoint: 'not a url' });
    expect(badEndpoint.statusCode).toBe(400);
    expect(badEndpoint.json()).toMatchObject({ code: 'INVALID_PUSH_SUBSCRIPTION' });
    expect(await subscriptions()).toHaveLength(2);

    for (let i = 0; i < 2; i++) {
      const res = await stop({ about, key, endpoint: phone.subscription.endpoint });
      expect(res.statusCode, res.body).toBe(204);
    }
    expect(await subscriptions()).toEqual([]);

    // Called now: no push is queued, and the SMS goes at the first sweep, not a minute later.
    expect((await q.act(ctx.staffA.headers, counterId, 'call-next')).statusCode).toBe(200);
    await worker().sweep();
    expect(await rowsOf(visit.id)).toEqual([
      expect.objectContaining({ channel: 'sms', status: 'sent' }),
    ]);
    expect(fake.received.filter((p) => p.phone === 'NgoBassaClaire')).toEqual([]);
    await finish();
  });

  it("erasing a booking's personal data deletes its phones' subscriptions", async () => {
    const booking = await s.book(ctx.a, { slot: SLOT.at1000 });
    const body = {
      about: { booking: booking.id },
      key: s.app.payments.access.keyFor(booking.id),
      locale: 'en',
      subscription: fake.phone('erased').subscription,
    };
    expect((await subscribe(body)).statusCode).toBe(201);
    const about = `booking:${booking.id}`;
    const count = async () =>
      (
        await s.db
          .selectFrom('push_subscriptions')
          .select('id')
          .where('about', '=', about)
          .execute()
      ).length;
    expect(await count()).toBe(1);
    await eraseBookings(s.db, [booking.id], s.clock.now());
    expect(await count()).toBe(0);
  });

  it('takes five phones per booking, and they follow it when it moves to another day', async () => {
    const booking = await s.book(ctx.a, { slot: SLOT.at0700 });
    const key = s.app.payments.access.keyFor(booking.id);
    const body = (name: string) => ({
      about: { booking: booking.id },
      key,
      locale: 'en',
      subscription: fake.phone(name).subscription,
    });
    const family = await Promise.all(
      ['f0', 'f1', 'f2', 'f3', 'f4', 'f5'].map((name) => subscribe(body(name))),
    );
    // Six at once: five taken, one refused (the count and the insert hold together).
    expect(family.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 201, 201, 409]);
    const refused = family.find((r) => r.statusCode === 409);
    expect(refused?.json().code).toBe('PUSH_SUBSCRIPTIONS_FULL');
    const about = `booking:${booking.id}`;
    const ends = () =>
      s.db
        .selectFrom('push_subscriptions')
        .select('expires_at')
        .where('about', '=', about)
        .execute();
    expect(await ends()).toHaveLength(5);
    await s.db
      .updateTable('bookings')
      .set({ booking_date: '2026-03-20' })
      .where('id', '=', booking.id)
      .execute();
    await queueBookingMessages(s.db, booking.id, 'reschedule', s.clock.now());
    expect((await ends()).map((r) => r.expires_at.toISOString())).toEqual(
      Array(5).fill('2026-03-22T00:00:00.000Z'),
    );
  });

  it('refuses a receipt it did not sign', async () => {
    const forged = await shown('00000000-0000-4000-8000-000000000000.AAAAAAAAAAAAAAAAAAAAAA');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('INVALID_PUSH_RECEIPT');
  });

  it('a walk-in subscribes with the visit key while in line, not once the visit is over', async () => {
    const visit = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Essomba', '+237677300011');
    const key = (await VisitAccess.load(s.db)).keyFor(visit.visit_id);
    const phone = fake.phone('walkin');
    const body = {
      about: { visit: visit.visit_id },
      key,
      locale: 'en',
      subscription: phone.subscription,
    };
    expect((await subscribe(body)).statusCode).toBe(201);
    await s.db
      .updateTable('visits')
      .set({ state: 'left' })
      .where('id', '=', visit.visit_id)
      .execute();
    const over = await subscribe(body);
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('PUSH_NOT_FOLLOWED');
  });

  it('a walk-in with no number who turned notifications on gets the turn by push only', async () => {
    const visit = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Sans Numéro');
    const key = (await VisitAccess.load(s.db)).keyFor(visit.visit_id);
    const phone = fake.phone('nonumber');
    const body = {
      about: { visit: visit.visit_id },
      key,
      locale: 'fr',
      subscription: phone.subscription,
    };
    expect((await subscribe(body)).statusCode).toBe(201);
    const call = await q.act(ctx.staffA.headers, counterId, 'call-next');
    expect(call.json().visit.visit_id).toBe(visit.visit_id);
    const rows = await s.db
      .selectFrom('outbox')
      .select(['channel', 'kind'])
      .where('dedupe_key', 'like', `visit:${visit.visit_id}:%`)
      .orderBy('kind')
      .execute();
    // "You are next" when it reached the notify position, then "go to the counter": pushes, no SMS.
    expect(rows.every((r) => r.channel === 'push')).toBe(true);
    expect(rows.map((r) => r.kind)).toContain('queue_called');
    const before = fake.received.length;
    await worker().sweep();
    expect(fake.received.slice(before).some((p) => p.phone === 'nonumber')).toBe(true);
    await finish();
  });

  it('a transferred visitor still subscribes from the first visit’s page', async () => {
    const visit = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Transféré', '+237677300012');
    const key = (await VisitAccess.load(s.db)).keyFor(visit.visit_id);
    // Moved to another line: the first visit is `transferred`, its successor waits.
    const [first] = await s.db
      .updateTable('visits')
      .set({ state: 'transferred' })
      .where('id', '=', visit.visit_id)
      .returningAll()
      .execute();
    if (!first) throw new Error('no visit');
    const { id: _id, ...rest } = first;
    await s.db
      .insertInto('visits')
      .values({
        ...rest,
        follow_code: null,
        state: 'waiting',
        number: first.number + 500,
        transferred_from: first.id,
      })
      .execute();
    const body = {
      about: { visit: visit.visit_id },
      key,
      locale: 'en',
      subscription: fake.phone('transferred').subscription,
    };
    const res = await subscribe(body);
    expect(res.statusCode, res.body).toBe(201);
  });

  it('where the site sends no WhatsApp, a booking does not offer it and refuses it', async () => {
    const booking = await s.book(ctx.a, { slot: SLOT.at0930 });
    const headers = { 'x-booking-key': s.app.payments.access.keyFor(booking.id) };
    const seen = await s.app.inject({
      method: 'GET',
      url: `/api/v1/bookings/${booking.id}`,
      headers,
    });
    expect(seen.json().booking).not.toHaveProperty('whatsapp_opt_in');
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/v1/bookings/${booking.id}/whatsapp`,
      headers,
      payload: { on: true },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'WHATSAPP_OFF' });
  });

  it('answers the key and its other routes with no-store', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/v1/push/key' });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
