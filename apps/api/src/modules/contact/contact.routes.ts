import { contactRequestSchema, contactResponseSchema } from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { errorResponses } from '../../errors.js';
import { routeLimit } from '../../limits/declarations.js';

/** Organizations ask to be onboarded; the platform team reads the stored requests. */
export function contactRoutes({ db, config, clock }: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/contact',
      {
        config: { rateLimit: routeLimit('contact', config), touchesCatalog: false },
        schema: {
          body: contactRequestSchema,
          response: { 201: contactResponseSchema, ...errorResponses(400, 413, 415, 429) },
        },
      },
      async (req, reply) => {
        const row = await db
          .insertInto('contact_requests')
          .values({
            user_name: req.body.user_name,
            user_email: req.body.user_email,
            message: req.body.message,
            contact_name: req.body.contact_name,
            phone: req.body.phone,
            // Not the column's default now(): the console shows when it was received.
            created_at: clock.now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return reply.status(201).send({ ok: true as const, id: row.id });
      },
    );
  };
}
