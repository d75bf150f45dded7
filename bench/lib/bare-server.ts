/**
 * The baseline: a bare Fastify process that answers, at the real paths, the exact bytes the
 * real server answered (same status and content type), touching no database. Whatever the
 * real server spends beyond this is its own work. Routes come from the JSON file in argv.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import type { BareRoute } from './processes.js';

const file = process.argv[2];
if (!file) throw new Error('usage: bare-server.ts <routes.json>');
const routes = JSON.parse(readFileSync(file, 'utf8')) as BareRoute[];

const app = Fastify({ logger: false });
app.get('/__bare/ready', async () => ({ ok: true }));
for (const route of routes) {
  const bytes = Buffer.from(route.body, 'base64');
  // The query string is not part of a Fastify route: one handler answers every query.
  app.route({
    method: route.method,
    url: route.path,
    handler: async (_req, reply) => reply.status(route.status).type(route.contentType).send(bytes),
  });
}
const shutdown = () => {
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
