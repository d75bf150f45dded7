import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeRequest } from '../../src/request-log.js';
import { SLOT, useCounterApp } from '../support/checkin-helpers.js';
import { outboxWorker } from '../support/messages-helpers.js';
import { queueApi } from '../support/queue-helpers.js';
import { type FakeWhatsApp, startFakeWhatsApp } from '../support/whatsapp-fake.js';

const SECOND = 1000;

/**
 * WhatsApp before SMS (issue 35, item 3; decision 144), against a local fake of the Cloud API:
 * a walk-in who asked for WhatsApp gets "go to the counter" as the approved utility template
 * at once, and the SMS only when the webhook did not say delivered within the minute; a
 * delivered status spares the SMS, a failed one sends it at once; the webhook's signature is
 * checked, and its subscription check answered only to the verify token.
 */
describe('WhatsApp before SMS', () => {
  let fake: FakeWhatsApp;
  beforeAll(async () => {
    fake = await startFakeWhatsApp(['qless_queue_near', 'qless_queue_called']);
  });
  afterAll(async () => {
    await fake?.close();
  });
  const VERIFY = 'the-verify-token-of-this-test';
  const s = useCounterApp(() => ({
    WHATSAPP_API_BASE_URL: fake.baseUrl,
    WHATSAPP_ACCESS_TOKEN: fake.accessToken,
    WHATSAPP_PHONE_NUMBER_ID: fake.phoneNumberId,
    WHATSAPP_APP_SECRET: fake.appSecret,
    WHATSAPP_VERIFY_TOKEN: VERIFY,
    OUTBOX_WORKER_INTERVAL_MS: '3600000',
  }));
  const { ctx } = s;
  const q = queueApi(() => s.app);
  const worker = () => outboxWorker(s.app);
  const webhook = (body: string, signature: string) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/whatsapp/webhook',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      payload: body,
    });
  let counterId: string;
  beforeAll(async () => {
    counterId = (await q.openCounter(ctx.adminA.headers, 'Guichet 2', [ctx.a.serviceId]))
      .counter_id;
  });

  /** A walk-in who asked for WhatsApp, called at the counter: its "called" rows. */
  async function calledByWhatsApp(phone: string, locale: 'en' | 'fr') {
    const res = await q.call('POST', '/queue/visits', ctx.staffA.headers, {
      service_id: ctx.a.serviceId,
      name: 'Client WhatsApp',
      phone,
      whatsapp: true,
      locale,
    });
    expect(res.statusCode, res.body).toBe(201);
    const visitId = res.json().visit.visit_id as string;
    expect((await q.act(ctx.staffA.headers, counterId, 'call-next')).statusCode).toBe(200);
    const rows = () =>
      s.db
        .selectFrom('outbox')
        .select([
          'channel',
          'status',
          'delivery',
          'last_error',
          'next_attempt_at',
          'provider_message_id',
        ])
        .where('dedupe_key', 'like', `visit:${visitId}:called:%`)
        .orderBy('channel', 'desc')
        .execute();
    return { visitId, rows };
  }
  const finish = async () => {
    await q.act(ctx.staffA.headers, counterId, 'start');
    await q.act(ctx.staffA.headers, counterId, 'done');
  };

  it('records the opt-in with the number, and sends the approved template in the visit’s language', async () => {
    const { visitId, rows } = await calledByWhatsApp('+237677500001', 'fr');
    const visit = await s.db
      .selectFrom('visits')
      .select('whatsapp_opt_in_at')
      .where('id', '=', visitId)
      .executeTakeFirstOrThrow();
    expect(visit.whatsapp_opt_in_at).toEqual(s.clock.now());
    const [whatsapp, sms] = await rows();
    expect(whatsapp).toMatchObject({ channel: 'whatsapp', status: 'pending' });
    expect(sms?.next_attempt_at?.getTime()).toBe(s.clock.now().getTime() + 60 * SECOND);
    await worker().sweep();
    const called = fake.sent.find(
      (m) => m.to === '237677500001' && m.template === 'qless_queue_called',
    );
    expect(called).toMatchObject({ language: 'fr' });
    expect(called?.params[1]).toBe('au Guichet 2');
    expect(called?.params[3]).toMatch(/^http:\/\/qless\.test\/visit\//);
    expect((await rows())[0]).toMatchObject({
      status: 'sent',
      delivery: null,
      provider_message_id: called?.id,
    });

    // Delivered: the SMS behind it is spared.
    const { body, signature } = fake.statusWebhook(called?.id ?? '', 'delivered');
    const res = await webhook(body, signature);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, recorded: 1 });
    // Said again (Meta retries), or about a message that is not ours: nothing more recorded.
    expect((await webhook(body, signature)).json()).toEqual({ ok: true, recorded: 0 });
    const stranger = fake.statusWebhook('wamid.not-ours', 'delivered');
    expect((await webhook(stranger.body, stranger.signature)).json()).toEqual({
      ok: true,
      recorded: 0,
    });
    const [after, spared] = await rows();
    expect(after).toMatchObject({ delivery: 'delivered' });
    expect(spared).toMatchObject({ status: 'skipped', last_error: 'delivered by WhatsApp' });
    await finish();
  });

  it('sends the SMS when WhatsApp said nothing within the minute, and at once when it failed', async () => {
    const quiet = await calledByWhatsApp('+237677500002', 'en');
    await worker().sweep();
    s.clock.advance(60 * SECOND);
    await worker().sweep();
    expect((await quiet.rows())[1]).toMatchObject({ channel: 'sms', status: 'sent' });
    await finish();

    const failing = await calledByWhatsApp('+237677500003', 'en');
    await worker().sweep();
    const sent = fake.sent.find(
      (m) => m.to === '237677500003' && m.template === 'qless_queue_called',
    );
    const { body, signature } = fake.statusWebhook(sent?.id ?? '', 'failed', 131026);
    expect((await webhook(body, signature)).statusCode).toBe(200);
    const [wa, sms] = await failing.rows();
    expect(wa).toMatchObject({ delivery: 'failed', last_error: 'not delivered: WA 131026' });
    expect(sms?.next_attempt_at?.getTime()).toBe(s.clock.now().getTime());
    await worker().sweep();
    expect((await failing.rows())[1]).toMatchObject({ status: 'sent' });
    await finish();
  });

  it('a number not on WhatsApp is refused for good: the SMS goes at once', async () => {
    fake.notOnWhatsApp.add('237677500004');
    const { rows } = await calledByWhatsApp('+237677500004', 'en');
    await worker().sweep();
    const [wa, sms] = await rows();
    expect(wa).toMatchObject({ status: 'failed', last_error: 'WA 131026 (permanent)' });
    expect(sms?.next_attempt_at?.getTime()).toBe(s.clock.now().getTime());
    await finish();
  });

  it('a booked customer asks for WhatsApp on the ticket page: the turn goes there, and the choice can be taken back', async () => {
    const booking = await s.book(ctx.a, { slot: SLOT.at0930, name: 'Essomba Luc' });
    const choose = (id: string, on: unknown, key = s.app.payments.access.keyFor(id)) =>
      s.app.inject({
        method: 'POST',
        url: `/api/v1/bookings/${id}/whatsapp`,
        headers: { 'x-booking-key': key },
        payload: { on },
      });
    const seen = await s.app.inject({
      method: 'GET',
      url: `/api/v1/bookings/${booking.id}`,
      headers: { 'x-booking-key': s.app.payments.access.keyFor(booking.id) },
    });
    expect(seen.json().booking.whatsapp_opt_in).toBe(false);
    const wrongKey = await choose(booking.id, true, 'x'.repeat(43));
    expect(wrongKey.statusCode).toBe(403);
    expect(wrongKey.json()).toMatchObject({ code: 'BOOKING_ACCESS_DENIED' });
    const bad = await choose(booking.id, 'yes');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_WHATSAPP_OPT_IN' });

    const on = await choose(booking.id, true);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().booking.whatsapp_opt_in).toBe(true);
    expect((await s.checkIn(ctx.staffA.headers, { code: booking.code })).statusCode).toBe(200);
    const visitOf = (id: string) =>
      s.db
        .selectFrom('visits')
        .select(['id', 'whatsapp_opt_in_at', 'phone'])
        .where('booking_id', '=', id)
        .executeTakeFirstOrThrow();
    // Check-in copied the opt-in to the visit; the call goes by WhatsApp.
    const visit = await visitOf(booking.id);
    expect(visit.whatsapp_opt_in_at).not.toBeNull();
    expect((await q.act(ctx.staffA.headers, counterId, 'call-next')).statusCode).toBe(200);
    await worker().sweep();
    const to = (visit.phone ?? '').replace('+', '');
    expect(fake.sent.find((m) => m.to === to && m.template === 'qless_queue_called')).toBeDefined();
    await finish();

    // Another takes it back after the call, before the worker sent it: the WhatsApp message is
    // withdrawn and its SMS goes at once.
    const other = await s.book(ctx.a, { slot: SLOT.at0930, name: 'Bilong Rose' });
    expect((await choose(other.id, true)).statusCode).toBe(200);
    expect((await s.checkIn(ctx.staffA.headers, { code: other.code })).statusCode).toBe(200);
    expect((await q.act(ctx.staffA.headers, counterId, 'call-next')).statusCode).toBe(200);
    const off = await choose(other.id, false);
    expect(off.json().booking.whatsapp_opt_in).toBe(false);
    const otherVisit = await visitOf(other.id);
    expect(otherVisit.whatsapp_opt_in_at).toBeNull();
    const rows = await s.db
      .selectFrom('outbox')
      .select(['channel', 'status', 'last_error', 'next_attempt_at'])
      .where('dedupe_key', 'like', `visit:${otherVisit.id}:called:%`)
      .orderBy('channel', 'desc')
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({
        channel: 'whatsapp',
        status: 'skipped',
        last_error: 'WhatsApp withdrawn',
      }),
      expect.objectContaining({
        channel: 'sms',
        status: 'pending',
        next_attempt_at: s.clock.now(),
      }),
    ]);
    await worker().sweep();
    const otherTo = (otherVisit.phone ?? '').replace('+', '');
    expect(fake.sent.filter((m) => m.to === otherTo)).toEqual([]);
    await finish();

    // A booking that no longer stands, or whose number was erased, is not offered it.
    const cancelled = await s.book(ctx.a, { slot: SLOT.at0930, status: 'cancelled' });
    const refused = await choose(cancelled.id, true);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'WHATSAPP_NOT_FOLLOWED' });
    const erased = await s.book(ctx.a, { slot: SLOT.at0930 });
    await s.db
      .updateTable('bookings')
      .set({ phone_number: '', personal_data_erased_at: s.clock.now() })
      .where('id', '=', erased.id)
      .execute();
    expect((await choose(erased.id, true)).json()).toMatchObject({ code: 'WHATSAPP_NOT_FOLLOWED' });
    const view = await s.app.inject({
      method: 'GET',
      url: `/api/v1/bookings/${erased.id}`,
      headers: { 'x-booking-key': s.app.payments.access.keyFor(erased.id) },
    });
    expect(view.json().booking).not.toHaveProperty('whatsapp_opt_in');
  });

  it('refuses a webhook it cannot verify, and answers the check only with the verify token', async () => {
    const { body } = fake.statusWebhook('wamid.x', 'delivered');
    const forged = await webhook(body, `sha256=${'0'.repeat(64)}`);
    expect(forged.statusCode).toBe(403);
    expect(forged.json().code).toBe('WHATSAPP_SIGNATURE_INVALID');
    expect((await webhook(body, 'not-a-signature')).statusCode).toBe(403);
    const check = (token: string) =>
      s.app.inject({
        method: 'GET',
        url: `/api/v1/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`,
      });
    const ok = await check(VERIFY);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    expect((await check('wrong-token-of-someone-else')).statusCode).toBe(403);
    // The verify token never reaches a log line; nor does the delivery webhook's secret path.
    for (const url of [
      `/api/v1/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1`,
      '/api/v1/sms/delivery/the-secret-of-the-path-xyz',
    ]) {
      const line = serializeRequest({ url, method: 'GET', host: 'h', ip: '1.2.3.4' } as never);
      expect(line.url).not.toContain(VERIFY);
      expect(line.url).not.toContain('the-secret-of-the-path-xyz');
      expect(line.url).toContain('[redacted]');
    }
  });
});
