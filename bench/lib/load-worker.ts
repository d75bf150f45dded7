/**
 * The load client, in its own process so that it never competes with the server's event
 * loop (a client in the server's process measures itself). Runs autocannon once on the URL
 * in argv[2] with the options in argv[3] (JSON) and prints the result as JSON.
 */
import autocannon from 'autocannon';

const url = process.argv[2];
const opts = JSON.parse(process.argv[3] ?? '{}') as {
  connections: number;
  duration: number;
  warmup: number;
  headers?: Record<string, string>;
};
if (!url) throw new Error('usage: load-worker.ts <url> <json options>');

const result = await autocannon({
  url,
  connections: opts.connections,
  duration: opts.duration,
  ...(opts.headers ? { headers: opts.headers } : {}),
  ...(opts.warmup > 0 ? { warmup: { connections: opts.connections, duration: opts.warmup } } : {}),
});
process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]),
    ),
  })}\n`,
);
