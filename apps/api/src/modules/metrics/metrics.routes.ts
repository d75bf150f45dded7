import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorBody } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Metrics } from './metrics.js';

/** Equal without telling, by its timing, how much of the guess was right (nor its length). */
function sameToken(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function bearerOf(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/**
 * `/metrics` on the main port, for the operator's token only (METRICS_TOKEN); without a
 * token configured it does not exist there (404, as any unknown path).
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  config: Config['metrics'],
  metrics: Metrics,
): void {
  app.get('/metrics', { config: { touchesCatalog: false } }, async (req, reply) => {
    if (config.token === null) {
      return reply
        .status(404)
        .send({ code: 'NOT_FOUND', message: 'No route for GET /metrics' } satisfies ErrorBody);
    }
    const given = bearerOf(req.headers.authorization);
    if (given === null || !sameToken(given, config.token)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({
          code: 'METRICS_TOKEN_REQUIRED',
          message: 'Metrics are for the operator: send Authorization: Bearer <METRICS_TOKEN>.',
        } satisfies ErrorBody);
    }
    const text = await metrics.text();
    return reply
      .header('content-type', metrics.contentType)
      .header('cache-control', 'no-store')
      .send(text);
  });
}

/**
 * The metrics listener of its own (METRICS_PORT on METRICS_HOST, loopback by default), for
 * a Prometheus on the machine or a private network: no token, nothing else served. Opened
 * when the app is ready, closed with it; `app.metricsAddress` says where it listens.
 */
export function registerMetricsListener(
  app: FastifyInstance,
  config: Config['metrics'],
  metrics: Metrics,
): void {
  if (config.port === null) return;
  const port = config.port;
  let server: Server | null = null;
  app.addHook('onReady', async () => {
    const listener = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
        return;
      }
      metrics.text().then(
        (text) => {
          res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : text);
        },
        (err: unknown) => {
          app.log.error({ err }, 'metrics scrape failed');
          res.writeHead(500, { 'content-type': 'text/plain' }).end('Scrape failed\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen({ host: config.host, port }, () => {
        listener.off('error', reject);
        resolve();
      });
    });
    server = listener;
    const address = listener.address() as AddressInfo;
    app.metricsAddress = `${address.address}:${address.port}`;
  });
  app.addHook('onClose', async () => {
    const listener = server;
    server = null;
    if (!listener) return;
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the metrics listener of its own listens ("host:port"), once ready; else null. */
    metricsAddress: string | null;
  }
}
