import { createTransport } from 'nodemailer';
import type { ChannelSender } from '../outbox/outbox.module.js';

/** A stuck SMTP server must not hold a sweep (and its claimed mail) for minutes. */
export const SMTP_STEP_TIMEOUT_MS = 15_000;

/**
 * The e-mail channel: SMTP through nodemailer. The URL carries host, port and credentials
 * (smtp:// upgrades with STARTTLS when offered, smtps:// is TLS from the start).
 */
export function smtpSender(smtpUrl: string, from: string): ChannelSender {
  const transporter = createTransport(
    {
      url: smtpUrl,
      connectionTimeout: SMTP_STEP_TIMEOUT_MS,
      greetingTimeout: SMTP_STEP_TIMEOUT_MS,
      socketTimeout: SMTP_STEP_TIMEOUT_MS,
      // nodemailer would otherwise log whole SMTP sessions (bodies with links) at debug.
      logger: false,
      debug: false,
    },
    { from },
  );
  return {
    provider: 'smtp',
    async deliver(to, mail) {
      try {
        const info = await transporter.sendMail({
          to,
          subject: mail.subject ?? '',
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
        });
        const id = (info as { messageId?: unknown }).messageId;
        return { ok: true, providerMessageId: typeof id === 'string' ? id.slice(0, 200) : null };
      } catch (err) {
        // The server refused this recipient for good (5xx on the envelope, e.g. a mistyped
        // address): retrying cannot help. Anything else (auth, connection) may pass later.
        const e = err as { code?: unknown; responseCode?: unknown };
        const permanent =
          e.code === 'EENVELOPE' && typeof e.responseCode === 'number' && e.responseCode >= 500;
        return { ok: false, permanent, error: describeMailError(err, smtpUrl) };
      }
    },
    async close() {
      transporter.close();
    },
  };
}

/**
 * What may be stored and logged of a delivery failure: the error's code and first line,
 * with the SMTP credentials, e-mail addresses and anything shaped like one of our link
 * tokens or access keys taken out.
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
  return text
    .replace(/[A-Za-z0-9_-]{43}/g, '[redacted]')
    .replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '[address]')
    .slice(0, 300);
}
