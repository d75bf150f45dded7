import { healthResponseSchema } from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';

/** Load balancers give up after about 2 s: answer "degraded" before they do. */
const PING_TIMEOUT_MS = 1500;

function pingWithin(ping: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([ping.catch(() => false), late]).finally(() => clearTimeout(timer));
}

export function healthRoutes({ database }: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      { schema: { response: { 200: healthResponseSchema, 503: healthResponseSchema } } },
      async (_req, reply) => {
        const reachable = await pingWithin(database.ping(), PING_TIMEOUT_MS);
        return reply.status(reachable ? 200 : 503).send({
          status: reachable ? 'ok' : 'degraded',
          database: { reachable, engine: database.engine },
        });
      },
    );
  };
}
