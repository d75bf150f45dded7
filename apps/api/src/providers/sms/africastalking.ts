import { isAbortError } from '../abort.js';
import type { SmsProvider, SmsProviderContext, SmsSendResult } from './provider.js';

/**
 * Africa's Talking SMS (sends to Cameroon among other countries), as its documentation and
 * official SDKs describe the call:
 *
 *   POST {base}/version1/messaging                base: https://api.africastalking.com,
 *   apiKey: <key>                                 sandbox https://api.sandbox.africastalking.com
 *   Accept: application/json
 *   Content-Type: application/x-www-form-urlencoded
 *   username=<app username>&to=<+237…>&message=<text>[&from=<sender id or short code>]
 *
 * → 201 {"SMSMessageData":{"Message":"Sent to 1/1 Total Cost: …","Recipients":[{"statusCode":
 *   101,"number":"+237…","status":"Success","cost":"…","messageId":"ATXid_…","messageParts":1}]}}
 *
 * Each recipient's `statusCode` says what became of it: 100 Processed, 101 Sent, 102 Queued
 * (accepted), or 401 RiskHold, 402 InvalidSenderId, 403 InvalidPhoneNumber, 404
 * UnsupportedNumberType, 405 InsufficientBalance, 406 UserInBlacklist, 407 CouldNotRoute,
 * 409 DoNotDisturbRejection, 500 InternalServerError, 501 GatewayError, 502
 * RejectedByGateway. The documentation leaves unsaid: the HTTP status and body of a refused
 * request (it only shows a DoNotDisturbRejection answered with HTTP 409 and the usual JSON;
 * a bad API key is commonly a 401 with a plain-text body), whether a held (RiskHold) message
 * is released later, and any idempotency key: a request that timed out may have been sent,
 * and sending it again may deliver it twice. What we do with each answer is in `classify`.
 */
export interface AfricasTalkingConfig {
  /** Without a trailing "/". */
  baseUrl: string;
  username: string;
  apiKey: string;
  /** Registered alphanumeric sender id or short code; null: the account's default. */
  senderId: string | null;
  /** Upper bound of one request; it is then aborted and the message retried later. */
  timeoutMs: number;
}

const ACCEPTED = new Set([100, 101, 102]);
/**
 * Refusals of this message for good: the number cannot receive it, or the gateway holds or
 * rejected it (a held message may still go out; sending it again could deliver it twice).
 */
const PERMANENT = new Set([401, 403, 404, 406, 502]);
// Everything else is tried again later: our sender id (402) or balance (405) once an
// operator fixes it, routing (407), the do-not-disturb window (409), the gateway's own
// faults (500, 501), and codes the documentation does not list. None of them sent anything.

const TOKEN = /^[A-Za-z]{1,40}$/;

/** A status name fit to store and log (the gateway's own words, never free text). */
function statusName(value: unknown): string {
  return typeof value === 'string' && TOKEN.test(value) ? value : 'unknown';
}

interface Recipient {
  statusCode: number | null;
  status: string;
  messageId: string | null;
  parts: number | null;
}

function readRecipient(body: unknown, to: string): Recipient | null {
  const data = (body as { SMSMessageData?: { Recipients?: unknown } } | null)?.SMSMessageData;
  const list = Array.isArray(data?.Recipients) ? (data.Recipients as unknown[]) : [];
  const entries = list.filter((r): r is Record<string, unknown> => typeof r === 'object' && !!r);
  const entry = entries.find((r) => r.number === to) ?? entries[0];
  if (!entry) return null;
  const code = Number(entry.statusCode);
  const id = typeof entry.messageId === 'string' ? entry.messageId : null;
  const parts = Number(entry.messageParts);
  return {
    statusCode: Number.isInteger(code) ? code : null,
    status: statusName(entry.status),
    messageId: id && id !== 'None' ? id.slice(0, 200) : null,
    parts: Number.isInteger(parts) && parts > 0 ? parts : null,
  };
}

/** The top-level "Message" when it is a bare status word (e.g. "InvalidSenderId"). */
function topLevelStatus(body: unknown): string | null {
  const message = (body as { SMSMessageData?: { Message?: unknown } } | null)?.SMSMessageData
    ?.Message;
  return typeof message === 'string' && TOKEN.test(message) ? message : null;
}

/** What the gateway's answer means for this message. */
export function classify(httpStatus: number, body: unknown, to: string): SmsSendResult {
  const recipient = readRecipient(body, to);
  if (recipient && recipient.statusCode !== null) {
    const { statusCode, status } = recipient;
    if (ACCEPTED.has(statusCode)) {
      return { ok: true, providerMessageId: recipient.messageId, parts: recipient.parts };
    }
    return {
      ok: false,
      code: `AT ${statusCode} ${status}`,
      retryable: !PERMANENT.has(statusCode),
    };
  }
  const word = topLevelStatus(body);
  if (httpStatus >= 200 && httpStatus < 300) {
    // Created, but no recipient says what became of the message: it may have gone out.
    if (!word) return { ok: false, code: `AT ${httpStatus} unreadable answer`, retryable: false };
    return { ok: false, code: `AT ${httpStatus} ${word}`, retryable: true };
  }
  const retryable =
    httpStatus >= 500 || [401, 403, 408, 409, 429].includes(httpStatus) || word !== null;
  return { ok: false, code: `AT HTTP ${httpStatus}${word ? ` ${word}` : ''}`, retryable };
}

export function createAfricasTalkingProvider(
  config: AfricasTalkingConfig,
  context: SmsProviderContext,
): SmsProvider {
  const http = context.fetch ?? fetch;
  const closing = new AbortController();
  const url = `${config.baseUrl}/version1/messaging`;
  return {
    name: 'africastalking',
    capabilities: { deliversToPhones: true, idempotentSend: false },
    async send(message) {
      const form = new URLSearchParams({
        username: config.username,
        to: message.to,
        message: message.text,
      });
      if (config.senderId) form.set('from', config.senderId);
      const signal = AbortSignal.any([AbortSignal.timeout(config.timeoutMs), closing.signal]);
      try {
        const response = await http(url, {
          method: 'POST',
          headers: {
            apiKey: config.apiKey,
            Accept: 'application/json',
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: form.toString(),
          signal,
          redirect: 'error',
        });
        const text = await response.text();
        let body: unknown = null;
        try {
          body = text === '' ? null : JSON.parse(text);
        } catch {
          // Plain text (an authentication refusal, a proxy's page): judged by its status.
        }
        return classify(response.status, body, message.to);
      } catch (error) {
        if (isAbortError(error) || signal.aborted) {
          return { ok: false, code: `AT timeout after ${config.timeoutMs} ms`, retryable: true };
        }
        const code = (error as { cause?: { code?: unknown } }).cause?.code;
        return {
          ok: false,
          code: `AT network error${typeof code === 'string' && TOKEN.test(code.replace(/_/g, '')) ? ` ${code}` : ''}`,
          retryable: true,
        };
      }
    },
    async close() {
      closing.abort();
    },
  };
}
