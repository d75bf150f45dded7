import {
  healthResponseSchema,
  livenessResponseSchema,
  type ReadinessResponse,
  readinessResponseSchema,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { DRAINING_RETRY_AFTER_S, type Lifecycle } from '../../lifecycle.js';

/** Load balancers give up after about 2 s: answer "degraded" before they do. */
const PING_TIMEOUT_MS = 1500;

function pingWithin(ping: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([ping.catch(() => false), late]).finally(() => clearTimeout(timer));
}

export function healthRoutes({ database }: AppDeps, lifecycle: Lifecycle): FastifyPluginAsyncZod {
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

    // Liveness (decision 028): restart the process only when this fails; a database that is
    // down is no reason to restart, so nothing here waits on it.
    app.get(
      '/health/live',
      { schema: { response: { 200: livenessResponseSchema } } },
      async (_req, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }),
    );

    // Readiness: send this process traffic only while it answers 200.
    app.get(
      '/health/ready',
      { schema: { response: { 200: readinessResponseSchema, 503: readinessResponseSchema } } },
      async (_req, reply) => {
        reply.header('cache-control', 'no-store');
        const unavailable = (reason: NonNullable<ReadinessResponse['reason']>) =>
          reply
            .status(503)
            .header('retry-after', String(DRAINING_RETRY_AFTER_S))
            .send({ status: 'unavailable', reason });
        if (lifecycle.draining) return unavailable('draining');
        const reachable = await pingWithin(database.ping(), PING_TIMEOUT_MS);
        // The drain may have begun during the ping.
        if (lifecycle.draining) return unavailable('draining');
        if (!reachable) return unavailable('database_unreachable');
        return reply.send({ status: 'ready', reason: null });
      },
    );
  };
}
