import { describe, expect, it } from 'vitest';
import { useCampayApp } from '../support/campay-app-harness.js';
import { initiateBody } from '../support/fixtures.js';
import { statusOf } from '../support/payment-helpers.js';

describe('Campay provider against a fake Campay server', () => {
  const h = useCampayApp({ timeoutMs: 1500 });

  const taken = async (date: string) =>
    (
      (
        await h.app.inject({
          method: 'GET',
          url: `/api/v1/service/${h.fx.serviceId}/bookings?start=${date}&end=${date}`,
        })
      ).json() as { bookings: unknown[] }
    ).bookings;

  it('collects with Campay and confirms on its signed callback (GET and POST)', async () => {
    for (const delivery of ['GET', 'POST'] as const) {
      const res = await h.initiate(initiateBody(h.fx, { date: h.nextDate() }));
      expect(res.statusCode).toBe(201);
      const { payment } = res.json();
      expect(payment).toMatchObject({ provider: 'campay', ussd_code: expect.any(String) });
      const tx = h.fake.findByExternalReference(payment.payment_id);
      expect(tx).toMatchObject({ from: '237677123456', amount: '2', currency: 'XAF' });
      h.fake.settle(tx?.reference as string, 'SUCCESSFUL');
      const fields = await h.fake.callbackFields(tx?.reference as string);
      const cb =
        delivery === 'GET'
          ? await h.app.inject({
              method: 'GET',
              url: `/api/v1/payment/callback/campay?${new URLSearchParams(fields)}`,
            })
          : await h.app.inject({
              method: 'POST',
              url: '/api/v1/payment/callback/campay',
              payload: fields,
            });
      expect(cb.statusCode).toBe(200);
      expect((await statusOf(h.app, payment.payment_id)).status).toBe('SUCCESSFUL');
    }
  });

  it('rejects a callback signed with another key, and trusts Campay over a tampered status', async () => {
    const { payment } = (await h.initiate(initiateBody(h.fx, { date: h.nextDate() }))).json();
    const tx = h.fake.findByExternalReference(payment.payment_id);
    const ref = tx?.reference as string;
    const forged = await h.fake.callbackFields(ref, { key: 'attacker-key-attacker-key' });
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/campay?${new URLSearchParams({ ...forged, status: 'SUCCESSFUL' })}`,
    });
    expect(res.statusCode).toBe(401);
    // A genuine signature on fields that claim success, while Campay says it failed.
    h.fake.settle(ref, 'FAILED');
    const genuine = await h.fake.callbackFields(ref);
    await h.app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/campay?${new URLSearchParams({ ...genuine, status: 'SUCCESSFUL' })}`,
    });
    expect((await statusOf(h.app, payment.payment_id)).status).toBe('FAILED');
  });

  it('does not apply a final status it cannot confirm with Campay', async () => {
    const { payment } = (await h.initiate(initiateBody(h.fx, { date: h.nextDate() }))).json();
    const tx = h.fake.findByExternalReference(payment.payment_id);
    h.fake.settle(tx?.reference as string, 'SUCCESSFUL');
    const fields = await h.fake.callbackFields(tx?.reference as string);
    h.fake.queueResponse('transaction', { status: 500, body: {} });
    const down = await h.app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/campay?${new URLSearchParams(fields)}`,
    });
    expect(down.statusCode).toBe(503);
    expect((await statusOf(h.app, payment.payment_id)).status).toBe('PENDING');
    // Without its reference, the callback is checked against the transaction we recorded.
    const { reference: _dropped, ...noReference } = fields;
    const ok = await h.app.inject({
      method: 'GET',
      url: `/api/v1/payment/callback/campay?${new URLSearchParams(noReference)}`,
    });
    expect(ok.statusCode).toBe(200);
    expect((await statusOf(h.app, payment.payment_id)).status).toBe('SUCCESSFUL');
  });

  it('recovers a lost callback through the reconciler', async () => {
    const { payment } = (await h.initiate(initiateBody(h.fx, { date: h.nextDate() }))).json();
    h.fake.settle(
      h.fake.findByExternalReference(payment.payment_id)?.reference as string,
      'SUCCESSFUL',
    );
    // No callback arrives. Too early for the reconciler: nothing happens.
    await h.app.payments.reconciler.sweep();
    expect((await statusOf(h.app, payment.payment_id)).status).toBe('PENDING');
    h.clock.advance(25_000);
    const swept = await h.app.payments.reconciler.sweep();
    expect(swept.checked).toBeGreaterThanOrEqual(1);
    expect((await statusOf(h.app, payment.payment_id)).status).toBe('SUCCESSFUL');
  });

  it('a provider refusal fails the payment and frees the slot at once', async () => {
    const cases = [
      {
        arrange: () => h.fake.setNextCollectError({ errorCode: 'ER101' }),
        status: 400,
        code: 'INVALID_PHONE',
      },
      {
        arrange: () => h.fake.setNextCollectError({ errorCode: 'ER301' }),
        status: 402,
        code: 'PAYMENT_DECLINED',
      },
    ];
    for (const c of cases) {
      const date = h.nextDate();
      c.arrange();
      const res = await h.initiate(initiateBody(h.fx, { date }));
      expect(res.statusCode, c.code).toBe(c.status);
      expect(res.json()).toMatchObject({ code: c.code, message: expect.any(String) });
      expect(res.body).not.toMatch(/ER\d{3}|down/);
      expect(await taken(date)).toEqual([]);
      expect((await h.initiate(initiateBody(h.fx, { date }))).statusCode).toBe(201);
    }
  });

  it('a collect that may have reached the payer (5xx, no answer) keeps the payment pending', async () => {
    const cases = [
      () => h.fake.queueResponse('collect', { status: 503, body: { message: 'down' } }),
      () => h.fake.hangNext('collect'),
    ];
    for (const arrange of cases) {
      const date = h.nextDate();
      arrange();
      const res = await h.initiate(initiateBody(h.fx, { date }));
      expect(res.statusCode).toBe(201);
      const { payment } = res.json();
      expect(payment).toMatchObject({ status: 'PENDING', ussd_code: null });
      expect(await taken(date)).toHaveLength(1);
      const events = await h.database.db
        .selectFrom('payment_events')
        .select('outcome')
        .where('payment_id', '=', payment.payment_id)
        .execute();
      expect(events.map((e) => e.outcome)).toEqual(['collect_uncertain']);
    }
  });
});
