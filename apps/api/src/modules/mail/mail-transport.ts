import { createTransport } from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

/** Where the worker hands mail over; SMTP in production, anything in tests. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** A stuck SMTP server must not hold a sweep (and its claimed mail) for minutes. */
const TIMEOUT_MS = 15_000;

/**
 * SMTP through nodemailer. The URL carries host, port and credentials
 * (smtp:// upgrades with STARTTLS when offered, smtps:// is TLS from the start).
 */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const transporter = createTransport(
    {
      url: smtpUrl,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
      // nodemailer would otherwise log whole SMTP sessions (bodies with links) at debug.
      logger: false,
      debug: false,
    },
    { from },
  );
  return {
    async send(mail) {
      await transporter.sendMail({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
      });
    },
    close() {
      transporter.close();
    },
  };
}

/**
 * What may be stored and logged of a delivery failure: the error's code and first line,
 * with the SMTP credentials and anything shaped like one of our link tokens taken out.
 */
export function describeMailError(err: unknown, smtpUrl: string | null): string {
  const e = err as { code?: unknown; responseCode?: unknown; message?: unknown };
  const parts = [
    typeof e.code === 'string' ? e.code : null,
    typeof e.responseCode === 'number' ? String(e.responseCode) : null,
    typeof e.message === 'string' ? (e.message.split('\n')[0] ?? '') : String(err),
  ].filter(Boolean);
  let text = parts.join(' ');
  if (smtpUrl) {
    try {
      const url = new URL(smtpUrl);
      for (const secret of [url.password, decodeURIComponent(url.password), url.username]) {
        if (secret.length >= 3) text = text.split(secret).join('[redacted]');
      }
    } catch {
      // The URL was validated at start-up.
    }
  }
  return text.replace(/[A-Za-z0-9_-]{43}/g, '[redacted]').slice(0, 300);
}
