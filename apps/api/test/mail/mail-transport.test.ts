import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpSender } from '../../src/modules/mail/mail-transport.js';
import { type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.js';

describe('the SMTP sender against a real local SMTP server', () => {
  let smtp: SmtpCapture;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
  });
  afterAll(async () => {
    await smtp.close();
  });

  const mail = { subject: 'Votre ticket', text: 'Bonjour', html: null };
  const REF = { outboxId: '00000000-0000-4000-8000-000000000001', ttlSeconds: 60 };

  it('delivers, and gives up at once on a recipient the server refuses for good', async () => {
    const sender = smtpSender(smtp.url, 'Qless <no-reply@qless.test>');
    try {
      expect(await sender.deliver('ada@example.cm', mail, REF)).toMatchObject({ ok: true });
      const refused = await sender.deliver('rejected@example.cm', mail, REF);
      expect(refused).toMatchObject({ ok: false, permanent: true });
    } finally {
      await sender.close();
    }
  });

  it('retries later when the server cannot be reached', async () => {
    const sender = smtpSender('smtp://127.0.0.1:1', 'Qless <no-reply@qless.test>');
    try {
      expect(await sender.deliver('ada@example.cm', mail, REF)).toMatchObject({
        ok: false,
        permanent: false,
      });
    } finally {
      await sender.close();
    }
  });
});
