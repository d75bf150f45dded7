import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { ROLES_OPERATOR } from '../../core/access/roles.js';
import { acceptFormBodies, secretPathWebhook } from '../../core/secret-path-webhook.js';
import { errorResponses } from '../../errors.js';

/** Where the delivery webhook's path secret lives (app_secrets): 32 random bytes, base64url. */
export const SMS_DELIVERY_SECRET = 'sms_delivery_path_secret';

/**
 * Africa's Talking's delivery report (its SMS documentation): a form-encoded POST with the
 * message's `id`, its `status` and, when it failed, a `failureReason`; also `phoneNumber`,
 * `networkCode` and `retryCount`, which are not kept.
 */
const reportBody = z.object({
  id: z.string().min(1).max(200),
  status: z.string().min(1).max(40),
  failureReason: z.string().max(200).optional(),
});

/** What a report's status says of the message: final or not yet. */
export function deliveryOf(status: string): 'delivered' | 'failed' | null {
  if (status === 'Success') return 'delivered';
  if (['Failed', 'Rejected', 'Expired', 'AbsentSubscriber'].includes(status)) return 'failed';
  // Sent, Submitted, Buffered: on the way; nothing known yet.
  return null;
}

/**
 * The SMS gateway's delivery reports (issue 35, item 4; decision 142): a message is
 * `delivered`, `failed`, or — until a final report — unknown, never assumed. The gateway signs
 * nothing, so the URL carries a secret of its own (like the inbound webhook's), redacted from
 * the request log; operators read the URL to give the gateway.
 */
export function smsDeliveryRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, guard } = deps;
  const operator = guard.require(ROLES_OPERATOR);
  return async (app) => {
    const webhook = await secretPathWebhook(db, SMS_DELIVERY_SECRET, '/sms/delivery');

    app.register(async (hook) => {
      acceptFormBodies(hook);
      hook.withTypeProvider<ZodTypeProvider>().post(
        '/sms/delivery/:secret',
        {
          config: { touchesCatalog: false },
          schema: {
            params: z.object({ secret: z.string().max(100) }),
            body: reportBody,
            response: {
              200: z.object({ ok: z.literal(true), recorded: z.boolean() }),
              ...errorResponses(400, 404, 413, 415),
            },
          },
        },
        async (req) => {
          webhook.check(req.params.secret);
          const delivery = deliveryOf(req.body.status);
          if (!delivery) return { ok: true as const, recorded: false };
          // A later final report does not undo an earlier one (reports may come twice).
          const row = await db
            .updateTable('outbox')
            .set({
              delivery,
              delivered_at: clock.now(),
              ...(delivery === 'failed'
                ? {
                    last_error: `not delivered: ${req.body.failureReason ?? req.body.status}`.slice(
                      0,
                      200,
                    ),
                  }
                : {}),
            })
            .where('channel', '=', 'sms')
            // The gateway's own ids only (another provider's could coincide).
            .where('provider', '=', deps.config.sms.provider)
            .where('provider_message_id', '=', req.body.id)
            .where('delivery', 'is', null)
            .returning('id')
            .executeTakeFirst();
          return { ok: true as const, recorded: row !== undefined };
        },
      );
    });

    app.get(
      '/platform/sms/delivery',
      {
        onRequest: operator,
        schema: {
          response: { 200: z.object({ url: z.string() }), ...errorResponses(401, 403) },
        },
      },
      async (_req, reply) => {
        reply.header('cache-control', 'no-store');
        return { url: webhook.url(deps.config.publicOrigin) };
      },
    );
  };
}
