// engines: postgres and pglite — e-mail optional: the column's '' on both engines (decision 121)
import { BOOKING_KEY_HEADER } from '@qless/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { signedIn } from '../support/auth-helpers.js';
import { initiateBody } from '../support/fixtures.js';
import { bookAndPay, outboxOf } from '../support/messages-helpers.js';
import { useSimulatorApp } from '../support/simulator-harness.js';
import { startSmtpCapture } from '../support/smtp-capture.js';

// Running before the block is collected: useSimulatorApp takes its env as it is called.
const smtp = await startSmtpCapture();
afterAll(async () => {
  await smtp.close();
});

/**
 * Issue 30, item 8 (decision 121): most customers have no e-mail. A booking without one
 * (the field left out, sent empty or null) is made, confirmed by SMS alone, and read back
 * with '' wherever the e-mail is shown; the seed's own client still sends `cus_email`.
 */
describe('a booking without an e-mail', () => {
  const h = useSimulatorApp({
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Qless <no-reply@qless.test>',
      OUTBOX_WORKER_INTERVAL_MS: '3600000',
      REMINDERS_ENABLED: 'false',
    },
  });
  const sweep = () => {
    const worker = h.app.messaging.worker;
    if (!worker) throw new Error('no outbox worker');
    return worker.sweep();
  };
  const keyIn = (text: string) => /[#?&]k=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';

  it('is confirmed by one SMS and no e-mail, and reads back with no address (field left out)', async () => {
    const body = initiateBody(h.fx, { date: h.nextDate(), slotIndex: 3 });
    delete body.cus_email;
    const res = await h.initiate(body);
    expect(res.statusCode).toBe(201);
    const { payment_id: paymentId, booking_id: bookingId } = res.json().payment as {
      payment_id: string;
      booking_id: string;
    };
    const row = await h.database.db
      .selectFrom('bookings')
      .select(['cus_email'])
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    expect(row.cus_email).toBe('');

    expect((await h.callback(paymentId, 'SUCCESSFUL')).json()).toMatchObject({
      outcome: 'confirmed',
    });
    const queued = await outboxOf(h.database, bookingId);
    expect(queued.map((r) => [r.channel, r.kind, r.to_address])).toEqual([
      ['sms', 'booking_confirmation', '+237677123456'],
    ]);
    expect(await sweep()).toEqual({ sent: 1, failed: 0, gaveUp: 0, skipped: 0 });
    const [sms] = await outboxOf(h.database, bookingId);
    expect(sms?.status).toBe('sent');
    expect(sms?.text_body).toContain('Qless: booking confirmed.');
    expect(smtp.messages).toHaveLength(0);

    // The ticket (payment status) and the customer's own page: no address, not "•••@".
    const status = await h.status(paymentId);
    expect(status.ticket?.email).toBe('');
    // The SMS's short link opens the ticket page with its key (decision 141).
    const linkCode = /\/t\/([0-9A-Z]{12})$/.exec(sms?.text_body ?? '')?.[1] ?? '';
    const opened = await h.app.inject({ method: 'GET', url: `/t/${linkCode}` });
    const key = keyIn(String(opened.headers.location));
    expect(key).not.toBe('');
    const view = await h.app.inject({
      method: 'GET',
      url: `/api/v1/bookings/${bookingId}`,
      headers: { [BOOKING_KEY_HEADER]: key },
    });
    expect(view.statusCode).toBe(200);
    expect(view.json().booking).toMatchObject({ email: '' });
    expect(view.json().booking.ticket).toMatchObject({ email: '' });
  });

  it('takes an empty or null e-mail as none, and still checks one that is given', async () => {
    for (const [index, cus_email] of [
      [4, ''],
      [5, '   '],
      [6, null],
    ] as const) {
      const { bookingId } = await bookAndPay(h, { slotIndex: index, cus_email });
      const rows = await outboxOf(h.database, bookingId);
      expect(rows.map((r) => r.channel)).toEqual(['sms']);
    }
    // The seed's own client sends an address: it is kept and gets its e-mail.
    const { bookingId } = await bookAndPay(h, { slotIndex: 7 });
    expect((await outboxOf(h.database, bookingId)).map((r) => r.channel)).toEqual(['email', 'sms']);

    const bad = await h.initiate(
      initiateBody(h.fx, { date: h.nextDate(), slotIndex: 8, cus_email: 'not-an-address' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_EMAIL' });
  });

  it('is exported by its phone with no address, and an e-mail look-up never finds it', async () => {
    const phone = '+237677000991';
    const { bookingId } = await bookAndPay(h, { slotIndex: 9, phone_number: phone, cus_email: '' });
    const operator = await signedIn(h.app, h.database.db, {
      email: 'ops@qless.cm',
      role: 'operator',
    });
    const byPhone = await h.app.inject({
      method: 'POST',
      url: '/api/v1/platform/personal-data/export',
      headers: operator.headers,
      payload: { phone },
    });
    expect(byPhone.statusCode, byPhone.body).toBe(200);
    expect(byPhone.json().bookings).toEqual([
      expect.objectContaining({ id: bookingId, cus_email: '', phone_number: phone }),
    ]);
    // An empty address is not an address: refused, never "every booking without one".
    const byEmpty = await h.app.inject({
      method: 'POST',
      url: '/api/v1/platform/personal-data/export',
      headers: operator.headers,
      payload: { email: '' },
    });
    expect(byEmpty.statusCode).toBe(400);
    expect(byEmpty.json().code).toBe('INVALID_EMAIL');
  });
});
