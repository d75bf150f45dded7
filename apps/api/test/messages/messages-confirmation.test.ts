import { afterAll, describe, expect, it } from 'vitest';
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
    expect(sms?.text_body).toContain(`at 09:30. Ticket ${code}: ${link}`);
    const key = keyIn(sms?.text_body ?? '');
    expect(h.app.payments.access.verify(bookingId, key)).toBe(true);

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
    for (const secret of [key, '677123456', 'ngono.marie@example.com', '/ticket/', code]) {
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
      /^Qless : réservation confirmée\. Guichet Unique, Counter 15, \w+\. \d+ \w+ à 09:00\. Ticket [A-Z0-9-]+ : http:\/\/qless\.test\/ticket\//,
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
