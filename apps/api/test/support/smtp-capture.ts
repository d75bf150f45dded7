import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string;
  subject: string;
  text: string;
  /** The HTML part, when the mail has one. */
  html: string | null;
  /** The envelope recipients, as the server received them. */
  rcpt: string[];
}

export interface SmtpCapture {
  port: number;
  /** SMTP_URL for the app. */
  url: string;
  messages: CapturedMail[];
  /** Waits until a mail to `to` (and matching `subject`, when given) has arrived. */
  waitFor(to: string, subject?: RegExp, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps every message it receives, parsed; it refuses
 * (550) any recipient whose address starts with "rejected@". No TLS and
 * no authentication: it stands in for the mail relay of a deployment.
 */
export async function startSmtpCapture(port = 0): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // A relay that refuses a recipient for good, as a mistyped address meets in the field.
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('rejected@')) {
        const refusal = Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 });
        return callback(refusal);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push({
            to: Array.isArray(mail.to)
              ? mail.to.map((a) => a.text).join(', ')
              : (mail.to?.text ?? ''),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : null,
            rcpt: session.envelope.rcptTo.map((r) => r.address),
          });
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    messages,
    async waitFor(to, subject, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(
          (m) => m.rcpt.includes(to) && (!subject || subject.test(m.subject)),
        );
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token at the end of a link like `${origin}/#/invite/<token>` in a mail's text. */
export function linkToken(text: string, page: 'invite' | 'reset-password'): string {
  const match = new RegExp(`/#/${page}/([A-Za-z0-9_-]{43})`).exec(text);
  if (!match?.[1]) throw new Error(`no ${page} link in:\n${text}`);
  return match[1];
}
