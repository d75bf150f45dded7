import { createHmac, timingSafeEqual } from 'node:crypto';
import { isAbortError } from '../abort.js';

/**
 * The WhatsApp Business Cloud API (Meta's documentation), for utility templates:
 *
 *   POST {base}/{phone number id}/messages            base: https://graph.facebook.com/v21.0
 *   Authorization: Bearer <access token>
 *   { "messaging_product": "whatsapp", "recipient_type": "individual", "to": "2376…",
 *     "type": "template", "template": { "name": "qless_queue_called",
 *     "language": { "code": "fr" }, "components": [ { "type": "body",
 *     "parameters": [ { "type": "text", "text": "A-012" }, … ] } ] } }
 *
 * → 200 { "messaging_product": "whatsapp", "contacts": [ { "input", "wa_id" } ],
 *         "messages": [ { "id": "wamid.…" } ] }
 * → 4xx/5xx { "error": { "message", "type", "code", "error_subcode", "fbtrace_id" } }
 *
 * A 200 is "accepted": whether the phone got it comes later, in the webhook's `statuses`
 * (sent, delivered, read, failed), signed with the app secret (X-Hub-Signature-256).
 */
export interface WhatsAppConfig {
  baseUrl: string;
  accessToken: string;
  phoneNumberId: string;
  timeoutMs: number;
}

/** A template message: its name without the prefix, language and body parameters in order. */
export interface TemplateMessage {
  template: string;
  language: 'en' | 'fr';
  params: string[];
}

export type WhatsAppSendResult =
  | { ok: true; messageId: string }
  | { ok: false; code: string; retryable: boolean };

/**
 * Refusals of this message for good (Meta's error codes): a parameter it will not take (100),
 * a template or its language that does not exist (132000, 132001), parameters that do not
 * match it (132012), a number that cannot get WhatsApp messages (131026), a recipient who asked
 * not to get marketing (131050). Everything else is tried again later: the rate limits
 * (130429, 131056), a token to fix (190), the service's own faults (131000, 5xx).
 */
const PERMANENT = new Set([100, 131026, 131050, 132000, 132001, 132012]);

export function createWhatsAppClient(config: WhatsAppConfig) {
  return {
    async send(to: string, message: TemplateMessage, prefix: string): Promise<WhatsAppSendResult> {
      const body = {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: to.replace(/^\+/, ''),
        type: 'template',
        template: {
          name: `${prefix}${message.template}`,
          language: { code: message.language },
          components: [
            {
              type: 'body',
              parameters: message.params.map((text) => ({ type: 'text', text })),
            },
          ],
        },
      };
      let response: Response;
      try {
        response = await fetch(`${config.baseUrl}/${config.phoneNumberId}/messages`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${config.accessToken}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(config.timeoutMs),
        });
      } catch (error) {
        const code = isAbortError(error)
          ? `WA timeout after ${config.timeoutMs} ms`
          : 'WA unreachable';
        return { ok: false, code, retryable: true };
      }
      const answer = (await response.json().catch(() => null)) as {
        messages?: { id?: unknown }[];
        error?: { code?: unknown };
      } | null;
      const id = answer?.messages?.[0]?.id;
      if (response.ok && typeof id === 'string' && id.length <= 200) {
        return { ok: true, messageId: id };
      }
      const code = typeof answer?.error?.code === 'number' ? answer.error.code : null;
      if (code !== null && PERMANENT.has(code)) {
        return { ok: false, code: `WA ${code}`, retryable: false };
      }
      return {
        ok: false,
        code: code === null ? `WA HTTP ${response.status}` : `WA ${code}`,
        retryable: true,
      };
    },
  };
}

/** Whether `signature` (X-Hub-Signature-256: sha256=<hex>) signs `raw` with `appSecret`. */
export function webhookSigned(
  raw: Buffer,
  signature: string | undefined,
  appSecret: string,
): boolean {
  const given = /^sha256=([0-9a-f]{64})$/.exec(signature ?? '')?.[1];
  if (!given) return false;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}

/** One message's status in a webhook: its id and what became of it. */
export interface WhatsAppStatus {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** Meta's error code when it failed. */
  errorCode: number | null;
}

/** The statuses a webhook's body carries (other changes, such as incoming messages, ignored). */
export function statusesOf(body: unknown): WhatsAppStatus[] {
  const out: WhatsAppStatus[] = [];
  const entries = (body as { entry?: unknown })?.entry;
  if (!Array.isArray(entries)) return out;
  for (const entry of entries) {
    const changes = (entry as { changes?: unknown })?.changes;
    if (!Array.isArray(changes)) continue;
    for (const change of changes) {
      const statuses = (change as { value?: { statuses?: unknown } })?.value?.statuses;
      if (!Array.isArray(statuses)) continue;
      for (const s of statuses as { id?: unknown; status?: unknown; errors?: unknown }[]) {
        if (typeof s?.id !== 'string' || s.id.length > 200) continue;
        if (!['sent', 'delivered', 'read', 'failed'].includes(s.status as string)) continue;
        const first = Array.isArray(s.errors) ? (s.errors[0] as { code?: unknown }) : undefined;
        out.push({
          id: s.id,
          status: s.status as WhatsAppStatus['status'],
          errorCode: typeof first?.code === 'number' ? first.code : null,
        });
      }
    }
  }
  return out;
}
