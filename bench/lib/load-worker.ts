/**
 * The load client, in its own process so that it never competes with the server's event
 * loop (a client in the server's process measures itself). Runs autocannon once on the URL
 * in argv[2] with the options in argv[3] (JSON) and prints the result as JSON.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const url = process.argv[2];
const opts = JSON.parse(process.argv[3] ?? '{}') as {
  connections: number;
  duration: number;
  warmup: number;
  headers?: Record<string, string>;
  cpuPid?: number;
};
if (!url) throw new Error('usage: load-worker.ts <url> <json options>');

/** User + system CPU time of a process, in clock ticks (/proc/<pid>/stat fields 14 and 15). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
/** Clock ticks a second (USER_HZ): 100 on Linux's usual builds. */
const TICKS_PER_SECOND = Number(process.env.CLK_TCK ?? 100);

const load = (duration: number, warmup: number) =>
  autocannon({
    url,
    connections: opts.connections,
    duration,
    ...(opts.headers ? { headers: opts.headers } : {}),
    ...(warmup > 0 ? { warmup: { connections: opts.connections, duration: warmup } } : {}),
  });
// With a process to watch, the warm-up runs apart, so that only the measured seconds count.
const cpuPid = opts.cpuPid;
if (cpuPid !== undefined && opts.warmup > 0) await load(opts.warmup, 0);
const before = cpuPid === undefined ? 0 : cpuTicks(cpuPid);
const result = await load(opts.duration, cpuPid === undefined ? opts.warmup : 0);
const cpuMicrosPerRequest =
  cpuPid === undefined || result.requests.total === 0
    ? undefined
    : ((cpuTicks(cpuPid) - before) * 1e6) / TICKS_PER_SECOND / result.requests.total;
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
    cpuMicrosPerRequest,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]),
    ),
  })}\n`,
);
