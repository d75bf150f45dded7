// also with redis — payment status and the route store of payment starts through the relay
// engines: postgres and pglite — LISTEN/NOTIFY fan-out
import { paymentStatusMessageSchema } from '@qless/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { initiateBody } from '../support/fixtures.js';
import { NO_LIMITS as LIMITS, listen, ORIGIN } from '../support/payment-helpers.js';
import { createTestApp } from '../support/test-app.js';
import { openSocket, recordSocket } from '../support/ws.js';

describe('status socket', () => {
  const s = useStack({ env: { ...LIMITS, SIMULATOR_DELAY_MS: '300' } });
  let host: string;

  beforeAll(async () => {
    host = await listen(s.app);
  });

  it('sends the status at once, then SUCCESSFUL with the ticket, then closes', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(s.fx),
    });
    const id = res.json().payment.payment_id as string;
    // The status names the customer and, once paid, carries the ticket's token: no cache
    // (browser, proxy) may keep it.
    const polled = await s.app.inject({ method: 'GET', url: `/api/v1/payment/${id}` });
    expect(polled.headers['cache-control']).toBe('no-store');
    const rec = await recordSocket(`ws://${host}/api/v1/payment/${id}/statusSocket`, ORIGIN);
    expect(rec.messages[0]).toMatchObject({
      status: 'PENDING',
      booking_id: expect.any(String),
      ticket: null,
    });
    const last = paymentStatusMessageSchema.parse(rec.messages.at(-1));
    expect(last.status).toBe('SUCCESSFUL');
    expect(last.ticket?.customer_name).toBe('Ngono Marie');
    expect(rec.closeCode).toBe(1000);
    // A socket opened after the end gets the final status once and closes.
    const after = await recordSocket(`ws://${host}/api/v1/payment/${id}/statusSocket`, ORIGIN);
    expect(after.messages).toHaveLength(1);
    expect(after.messages[0]).toMatchObject({ status: 'SUCCESSFUL' });
  });

  it('sends FAILED for the simulator decline number', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(s.fx, { slotIndex: 1, phone_number: '699000000' }),
    });
    const id = res.json().payment.payment_id as string;
    const rec = await recordSocket(`ws://${host}/api/v1/payment/${id}/statusSocket`, ORIGIN);
    expect(rec.messages.at(-1)).toMatchObject({ status: 'FAILED', ticket: null });
  });

  it('closes with an error for an unknown or malformed id', async () => {
    const unknown = await recordSocket(
      `ws://${host}/api/v1/payment/00000000-0000-4000-8000-000000000000/statusSocket`,
      ORIGIN,
    );
    expect(unknown.messages).toEqual([
      { error: { code: 'PAYMENT_NOT_FOUND', message: expect.any(String) } },
    ]);
    expect(unknown.closeCode).toBe(4404);
    const bad = await recordSocket(`ws://${host}/api/v1/payment/nope/statusSocket`, ORIGIN);
    expect(bad.messages[0]).toMatchObject({ error: { code: 'INVALID_ID' } });
  });

  it('refuses a socket from another origin', async () => {
    await expect(
      recordSocket(
        `ws://${host}/api/v1/payment/00000000-0000-4000-8000-000000000000/statusSocket`,
        'https://evil.example',
      ),
    ).rejects.toThrow('HTTP 403');
  });

  // Before: one client opened 500 sockets (+26 MB) and nothing stopped it.
  it('caps open sockets per client address, and frees a place when one closes', async () => {
    const { app: capped } = await createTestApp(s.database, {
      env: { ...LIMITS, SIMULATOR_DELAY_MS: '600000', STATUS_SOCKETS_PER_IP: '2' },
    });
    try {
      const cappedHost = await listen(capped);
      const res = await capped.inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        payload: initiateBody(s.fx, { slotIndex: 5, phone_number: '677321000' }),
      });
      const url = `ws://${cappedHost}/api/v1/payment/${res.json().payment.payment_id}/statusSocket`;
      const first = await openSocket(url, ORIGIN);
      const second = await openSocket(url, ORIGIN);
      expect(second.first).toMatchObject({ status: 'PENDING' });
      const refused = await recordSocket(url, ORIGIN);
      expect(refused.closeCode).toBe(4429);
      expect(refused.messages).toEqual([
        { error: { code: 'TOO_MANY_SOCKETS', message: expect.any(String) } },
      ]);
      first.ws.close();
      await first.closed;
      const third = await openSocket(url, ORIGIN);
      expect(third.first).toMatchObject({ status: 'PENDING' });
      second.ws.close();
      third.ws.close();
      await Promise.all([second.closed, third.closed]);
    } finally {
      await capped.close();
    }
  });
});
