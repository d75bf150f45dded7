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
// The query string is not part of a Fastify route: one handler per path answers each query
// with the route captured with that query, or the path's first route.
const byPath = new Map<string, BareRoute[]>();
for (const route of routes) {
  const key = `${route.method} ${route.path}`;
  byPath.set(key, [...(byPath.get(key) ?? []), route]);
}
for (const same of byPath.values()) {
  const [first] = same;
  if (!first) continue;
  const answers = same.map((route) => ({
    query: route.query ?? '',
    status: route.status,
    type: route.contentType,
    bytes: Buffer.from(route.body, 'base64'),
  }));
  app.route({
    method: first.method,
    url: first.path,
    handler: async (req, reply) => {
      const query = req.url.split('?')[1] ?? '';
      const answer = answers.find((a) => a.query === query) ?? answers[0];
      if (!answer) return reply.status(404).send();
      return reply.status(answer.status).type(answer.type).send(answer.bytes);
    },
  });
}
const shutdown = () => {
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
