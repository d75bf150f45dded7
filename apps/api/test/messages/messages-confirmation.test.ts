import { afterAll, describe, expect, it } from 'vitest';
import { smsParts } from '../../src/providers/sms/sms-text.js';
import { bookAndPay, outboxOf } from '../support/messages-helpers.js';
import { useSimulatorApp } from '../support/simulator-harness.js';
import { startSmtpCapture } from '../support/smtp-capture.js';

const FROM = 'Qless <no-reply@qless.test>';

// Running before the block is collected: useSimulatorApp takes its env as it is called.
const smtp = await startSmtpCapture();
afterAll(async () => {
  await smtp.close();
});

describe('confirmation messages', () => {
  const env: Record<string, string> = {
    SMTP_URL: smtp.url,
    MAIL_FROM: FROM,
    LOG_LEVEL: 'info',
    // The tests sweep by hand, on the pinned clock.
    OUTBOX_WORKER_INTERVAL_MS: '3600000',
    REMINDERS_ENABLED: 'false',
  };
  const logLines: string[] = [];
  const h = useSimulatorApp({
    env,
    logStream: { write: (line) => logLines.push(line) },
  });
  const sweep = () => {
    const worker = h.app.messaging.worker;
    if (!worker) throw new Error('no outbox worker');
    return worker.sweep();
  };
  const keyIn = (text: string) => /[#?&]k=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';

  it('a settled payment queues one SMS and one e-mail, in the confirming transaction, once', async () => {
    const { bookingId, paymentId } = await bookAndPay(h, { slotIndex: 10 });
    let rows = await outboxOf(h.database, bookingId);
    expect(rows.map((r) => [r.channel, r.kind, r.status, r.to_address, r.locale])).toEqual([
      ['email', 'booking_confirmation', 'pending', 'ngono.marie@example.com', 'en'],
      ['sms', 'booking_confirmation', 'pending', '+237677123456', 'en'],
    ]);
    const date = rows[0]?.occurrence?.split('T')[0]?.split('.')[1];
    expect(rows.map((r) => r.dedupe_key)).toEqual([
      `booking:${bookingId}:confirmation:0.${date}T09:30:email`,
      `booking:${bookingId}:confirmation:0.${date}T09:30:sms`,
    ]);
    // Written when sent, from the booking as it then stands.
    expect(rows.every((r) => r.text_body === null)).toBe(true);
    // Its short link was made with the confirmation (decision 141), not by the sender.
    const { link_code: madeAtConfirmation } = await h.database.db
      .selectFrom('bookings')
      .select('link_code')
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    expect(madeAtConfirmation).toMatch(/^[0-9A-Z]{12}$/);

    // The provider says it again: the booking is confirmed once, the messages queued once.
    expect((await h.callback(paymentId, 'SUCCESSFUL')).json()).toMatchObject({
      outcome: 'duplicate',
    });
    expect(await outboxOf(h.database, bookingId)).toHaveLength(2);

    expect(await sweep()).toEqual({ sent: 2, failed: 0, gaveUp: 0, skipped: 0 });
    rows = await outboxOf(h.database, bookingId);
    const [email, sms] = rows;
    expect(sms).toMatchObject({ status: 'sent', provider: 'simulator', attempts: 1 });
    expect(sms?.provider_message_id).toMatch(/^sim-/);
    const code = (await h.status(paymentId)).ticket?.code ?? '';
    const link = `http://qless.test/ticket/${code}#k=`;
    expect(sms?.text_body).toContain(`Qless: booking confirmed. Guichet Unique, Counter 15, `);
    // The SMS carries the booking's short link (decision 141), in one part.
    const short = new RegExp(`at 09:30\\. Ticket ${code}: http://qless\\.test/t/([0-9A-Z]{12})$`);
    const linkCode = short.exec(sms?.text_body ?? '')?.[1] ?? '';
    expect(linkCode, sms?.text_body ?? '').toBe(madeAtConfirmation);
    expect(smsParts(sms?.text_body ?? '')).toBe(1);
    // It opens the ticket page with its key, as the long link did; typed in lower case too.
    const opened = await h.app.inject({ method: 'GET', url: `/t/${linkCode.toLowerCase()}` });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers['cache-control']).toBe('no-store');
    const location = String(opened.headers.location);
    expect(location.startsWith(`/ticket/${code}#k=`)).toBe(true);
    const key = keyIn(location);
    expect(h.app.payments.access.verify(bookingId, key)).toBe(true);
    // A code that opens nothing, or is not one, goes to My bookings.
    for (const other of ['0000000000AB', 'not-a-code', `${linkCode}X`]) {
      const res = await h.app.inject({ method: 'GET', url: `/t/${other}` });
      expect([res.statusCode, res.headers.location]).toEqual([302, '/my-bookings?link=unknown']);
    }
    // The booking keeps its code: a reminder links the same.
    const again = await h.app.inject({ method: 'GET', url: `/t/${linkCode}` });
    expect(again.headers.location).toBe(location);

    expect(email).toMatchObject({ status: 'sent', provider: 'smtp' });
    const mail = await smtp.waitFor('ngono.marie@example.com', /^Booking confirmed: /);
    expect(mail.text).toContain('Hello Ngono Marie,');
    expect(mail.text).toContain(`Ticket: ${code}`);
    expect(mail.text).toContain('Time: 09:30, Douala time (UTC+1)');
    expect(keyIn(mail.text)).toBe(key);
    expect(mail.html).toContain(`<a href="${link}${key}">`);
    expect(email?.text_body).toContain('Hello Ngono Marie,');

    // Sent messages are not sent again.
    h.clock.advance(3_600_000);
    expect(await sweep()).toEqual({ sent: 0, failed: 0, gaveUp: 0, skipped: 0 });
    expect(smtp.messages.filter((m) => m.rcpt.includes('ngono.marie@example.com'))).toHaveLength(1);

    // Nothing of the messages reached the log: no number, address, link, key or text.
    const log = logLines.join('');
    for (const secret of [
      key,
      '677123456',
      'ngono.marie@example.com',
      '/ticket/',
      code,
      linkCode,
    ]) {
      expect(log).not.toContain(secret);
    }
  });

  it('a booking made in French gets its messages in French', async () => {
    const { bookingId } = await bookAndPay(h, {
      slotIndex: 8,
      locale: 'fr',
      phone_number: '699 11 22 33',
      cus_email: 'awa.bello@example.cm',
      cus_name: 'Awa Bello',
    });
    await sweep();
    const [, sms] = await outboxOf(h.database, bookingId);
    expect(sms?.locale).toBe('fr');
    expect(sms?.text_body).toMatch(
      /^Qless : réservation confirmée\. Guichet Unique, Counter 15, \w+\. \d+ \w+ à 09:00\. Ticket [A-Z0-9-]+ : http:\/\/qless\.test\/t\/[0-9A-Z]{12}$/,
    );
    const mail = await smtp.waitFor('awa.bello@example.cm', /^Réservation confirmée\u00a0: /);
    expect(mail.text).toContain('Bonjour Awa Bello,');
    expect(mail.text).toContain('Votre réservation est confirmée.');
    expect(mail.text).toContain('Heure\u00a0: 09:00, heure de Douala (UTC+1)');
    expect(mail.text).toContain('Les frais de 2\u00a0FCFA ne sont pas remboursés');
    expect(mail.text).not.toMatch(/XAF|Africa\/Douala| :/);
    expect(mail.html).toContain('<html lang="fr">');
  });
});
