/**
 * 200 simultaneous requests, from their own process: each body in the JSON file (argv[2]) is
 * sent on its own connection at once; prints the statuses and the time until the last answer.
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

function send(body: string): Promise<number> {
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
const settled = await Promise.allSettled(burst.bodies.map(send));
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
