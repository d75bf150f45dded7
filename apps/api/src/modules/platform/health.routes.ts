import { healthResponseSchema } from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';

export function healthRoutes({ database }: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      { schema: { response: { 200: healthResponseSchema, 503: healthResponseSchema } } },
      async (_req, reply) => {
        const reachable = await database.ping();
        return reply.status(reachable ? 200 : 503).send({
          status: reachable ? 'ok' : 'degraded',
          database: { reachable, engine: database.engine },
        });
      },
    );
  };
}
