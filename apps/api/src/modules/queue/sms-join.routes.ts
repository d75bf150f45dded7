/**
 * Joining from a basic phone (decision 136): the SMS gateway's webhook (its secret in the
 * path: Africa's Talking signs nothing it posts), the branch's word in Queue setup (admin), and
 * the operator's console side of it — the address to give the gateway, and a text "received"
 * by hand for a demo on the simulator.
 */
import { randomUUID } from 'node:crypto';
import {
  consoleSmsRequestSchema,
  consoleSmsResponseSchema,
  normalizeCameroonMobile,
  organizationScopeQuerySchema,
  smsInboundUrlSchema,
  smsJoinRequestSchema,
  smsJoinSettingsSchema,
} from '@qless/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import { ROLES_ADMIN, ROLES_OPERATOR, targetOrganization } from '../../core/access/roles.js';
import { acceptFormBodies, secretPathWebhook } from '../../core/secret-path-webhook.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError, errorResponses } from '../../errors.js';
import type { Limiter } from '../../limits/limiter.js';
import type { PhoneLimits, SmsJoin } from './sms-join.js';

/** Where the webhook's path secret lives (app_secrets): 32 random bytes, base64url. */
export const SMS_INBOUND_SECRET = 'sms_inbound_path_secret';

/** What a gateway posts: Africa's Talking's fields (`from`, `text`, `id`; `to`, `date` unused). */
const inboundBody = z.object({
  from: z.string().max(30),
  text: z.string().max(1000).default(''),
  id: z.string().min(1).max(100),
});

export function smsJoinRoutes(
  deps: AppDeps,
  sms: SmsJoin,
  limits: Limiter,
  gateway: { provider: string; number: string | null; publicOrigin: string },
): FastifyPluginAsyncZod {
  const { db, guard } = deps;
  const admin = guard.require(ROLES_ADMIN);
  const operator = guard.require(ROLES_OPERATOR);
  const limitOf = (reply: FastifyReply): PhoneLimits => ({
    join: (phone) => limits.enforce(reply, [{ limit: 'sms-joins-per-phone', of: phone }]),
    codeTry: (phone) =>
      limits.reserve(reply, [{ limit: 'sms-day-code-tries-per-phone', of: phone }]),
  });

  return async (app) => {
    const webhook = await secretPathWebhook(db, SMS_INBOUND_SECRET, '/sms/inbound');

    app.register(async (hook) => {
      acceptFormBodies(hook);
      hook.withTypeProvider<ZodTypeProvider>().post(
        '/sms/inbound/:secret',
        {
          config: { touchesCatalog: false },
          schema: {
            params: z.object({ secret: z.string().max(100) }),
            body: inboundBody,
            response: {
              200: z.object({ ok: z.literal(true), outcome: z.string() }),
              ...errorResponses(400, 404, 413, 415),
            },
          },
        },
        async (req, reply) => {
          webhook.check(req.params.secret);
          const from = normalizeCameroonMobile(req.body.from);
          if (!from) {
            // Not a Cameroonian mobile: nothing to answer, nothing to join; the gateway is told
            // it was received (it would post it again otherwise).
            return { ok: true as const, outcome: 'foreign_number' };
          }
          const answer = await sms.receive(
            { provider: gateway.provider, messageId: req.body.id, from, text: req.body.text },
            limitOf(reply),
          );
          return { ok: true as const, outcome: answer.outcome };
        },
      );
    });

    app.get(
      '/platform/sms/inbound',
      {
        onRequest: operator,
        schema: { response: { 200: smsInboundUrlSchema, ...errorResponses(401, 403) } },
      },
      async (_req, reply) => {
        reply.header('cache-control', 'no-store');
        return { url: webhook.url(gateway.publicOrigin) };
      },
    );

    app.post(
      '/platform/sms/inbound',
      {
        onRequest: operator,
        config: { touchesCatalog: false },
        schema: {
          body: consoleSmsRequestSchema,
          response: {
            200: consoleSmsResponseSchema,
            ...errorResponses(400, 401, 403, 409, 415, 429),
          },
        },
      },
      async (req, reply) => {
        // With a real gateway, answers go to real phones: by hand, only on the simulator.
        if (gateway.provider !== 'simulator') {
          throw new AppError(
            409,
            'SMS_INBOUND_NOT_FOUND',
            'Texts are received by hand only with the SMS simulator.',
          );
        }
        return sms.receive(
          {
            provider: 'console',
            messageId: randomUUID(),
            from: req.body.from,
            text: req.body.text,
          },
          limitOf(reply),
        );
      },
    );

    app.get(
      '/queue/sms-join',
      {
        onRequest: admin,
        schema: {
          querystring: organizationScopeQuerySchema,
          response: { 200: smsJoinSettingsSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        return settingsOf(organizationId);
      },
    );

    app.put(
      '/queue/sms-join',
      {
        onRequest: admin,
        config: { touchesCatalog: false },
        schema: {
          querystring: organizationScopeQuerySchema,
          body: smsJoinRequestSchema,
          response: { 200: smsJoinSettingsSchema, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (req) => {
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        try {
          await db
            .updateTable('organizations')
            .set({ sms_keyword: req.body.keyword })
            .where('id', '=', organizationId)
            .execute();
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          throw new AppError(
            409,
            'SMS_KEYWORD_TAKEN',
            'Another branch texts this word already. Choose another one.',
          );
        }
        return settingsOf(organizationId);
      },
    );

    async function settingsOf(organizationId: string) {
      const org = await db
        .selectFrom('organizations')
        .select('sms_keyword')
        .where('id', '=', organizationId)
        .executeTakeFirst();
      if (!org) throw new AppError(404, 'ORGANIZATION_NOT_FOUND', 'No such organization.');
      return {
        keyword: org.sms_keyword,
        number: gateway.number,
        today: await sms.todayOf(organizationId),
      };
    }
  };
}
