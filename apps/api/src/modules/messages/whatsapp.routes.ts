import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { Config } from '../../config.js';
import { AppError, errorResponses } from '../../errors.js';
import {
  createWhatsAppClient,
  statusesOf,
  webhookSigned,
} from '../../providers/whatsapp/cloud-api.js';
import type { ChannelSender } from '../outbox/outbox.module.js';
import { recordDelivered, recordWhatsAppFailed } from './free-first.js';

type WhatsAppSettings = NonNullable<Config['whatsapp']>;

/**
 * The outbox's WhatsApp channel (decision 144): a message's text is its template, language and
 * parameters as JSON; a 200 from the Cloud API is "accepted" (sent); delivered is what its
 * webhook says.
 */
export function whatsappSender(settings: WhatsAppSettings): ChannelSender {
  const client = createWhatsAppClient(settings);
  return {
    provider: 'whatsapp',
    async deliver(to, message) {
      const written = JSON.parse(message.text) as {
        template: string;
        language: 'en' | 'fr';
        params: string[];
      };
      const result = await client.send(to, written, settings.templatePrefix);
      if (result.ok) return { ok: true, providerMessageId: result.messageId };
      return { ok: false, error: result.code, permanent: !result.retryable };
    },
    close: async () => {},
  };
}

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * WhatsApp's webhook (Meta's documentation): GET answers the subscription check
 * (`hub.mode=subscribe`, `hub.verify_token`, echoing `hub.challenge`); POST carries message
 * statuses, signed `X-Hub-Signature-256: sha256=HMAC(app secret, raw body)`. Delivered or
 * read: the message is delivered and the SMS behind it spared; failed: recorded so, and the SMS
 * sent at once.
 */
export function whatsappWebhookRoutes(
  deps: AppDeps,
  settings: WhatsAppSettings,
): FastifyPluginAsyncZod {
  const { db, clock } = deps;
  return async (app) => {
    app.get(
      '/whatsapp/webhook',
      {
        schema: {
          querystring: z.object({
            'hub.mode': z.string().max(20).optional(),
            'hub.verify_token': z.string().max(200).optional(),
            'hub.challenge': z.string().max(200).optional(),
          }),
          response: { 200: z.string(), ...errorResponses(403) },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const token = settings.verifyToken;
        if (
          !token ||
          q['hub.mode'] !== 'subscribe' ||
          !sameText(q['hub.verify_token'] ?? '', token)
        ) {
          throw new AppError(403, 'WHATSAPP_SIGNATURE_INVALID', 'This is not our webhook check.');
        }
        reply.header('content-type', 'text/plain; charset=utf-8');
        return q['hub.challenge'] ?? '';
      },
    );

    app.register(async (hook) => {
      // The signature is over the body's bytes: read them as they came (in this context only).
      hook.removeContentTypeParser('application/json');
      hook.addContentTypeParser(
        'application/json',
        { parseAs: 'buffer', bodyLimit: 256 * 1024 },
        (_req, body, done) => done(null, body),
      );
      hook.post(
        '/whatsapp/webhook',
        {
          config: { touchesCatalog: false },
          schema: {
            response: {
              200: z.object({ ok: z.literal(true), recorded: z.number().int() }),
              ...errorResponses(400, 403, 413, 415),
            },
          },
        },
        async (req) => {
          const raw = req.body as Buffer;
          const signature = req.headers['x-hub-signature-256'];
          const secret = settings.appSecret;
          if (
            !secret ||
            !webhookSigned(raw, typeof signature === 'string' ? signature : undefined, secret)
          ) {
            throw new AppError(403, 'WHATSAPP_SIGNATURE_INVALID', 'The signature does not match.');
          }
          let body: unknown;
          try {
            body = JSON.parse(raw.toString('utf8'));
          } catch {
            throw new AppError(400, 'INVALID_QUERY', 'The body is not JSON.');
          }
          let recorded = 0;
          const now = clock.now();
          for (const status of statusesOf(body)) {
            if (status.status === 'delivered' || status.status === 'read') {
              const result = await db
                .transaction()
                .execute((trx) =>
                  recordDelivered(trx, { channel: 'whatsapp', providerMessageId: status.id }, now),
                );
              if (result.recorded) recorded += 1;
            } else if (status.status === 'failed') {
              const reason = `not delivered: WA ${status.errorCode ?? 'failed'}`;
              const matched = await db
                .transaction()
                .execute((trx) => recordWhatsAppFailed(trx, status.id, reason, now));
              if (matched) recorded += 1;
            }
          }
          return { ok: true as const, recorded };
        },
      );
    });
  };
}
