/**
 * 200 simultaneous requests, from their own process: each body in the JSON file (argv[2]) is
 * sent on its own connection at once; prints the statuses and the time until the last answer.
 * Each request comes from its own client address (X-Forwarded-For, read by the server behind
 * TRUST_PROXY=1): 200 customers racing for one seat, not one client whose own per-address
 * limits and lock would serialize its requests before they ever reach the seat.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

interface Burst {
  url: string;
  method: string;
  bodies: string[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: burst-worker.ts <burst.json>');
const burst = JSON.parse(readFileSync(file, 'utf8')) as Burst;
const target = new URL(burst.url);

function send(body: string, index: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: burst.method,
        // A connection each: the burst is simultaneous, not queued on a few sockets.
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-forwarded-for': `10.77.${index >> 8}.${index & 255}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const start = performance.now();
const settled = await Promise.allSettled(burst.bodies.map((body, i) => send(body, i)));
const elapsedMs = performance.now() - start;
process.stdout.write(
  `${JSON.stringify({
    elapsedMs,
    statuses: settled.map((s) => (s.status === 'fulfilled' ? s.value : 0)),
    errors: settled
      .filter((s): s is PromiseRejectedResult => s.status === 'rejected')
      .map((s) => String(s.reason).slice(0, 200))
      .slice(0, 5),
  })}\n`,
);
