/**
 * A load or listening process for bench/beyond-one-db.ts, forked so the figures do not
 * measure the harness itself (design.md: a load client in the measured process measures
 * itself). Told what to do by one IPC message; answers `ready`, then its result on `stop`
 * (listeners) or when its time is up (writers).
 */
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import pg from 'pg';

export type WriterMode =
  /** One row update per statement (autocommit): the baseline write. */
  | 'pg-update'
  /** The same update notifying from the statement (as markSettled does): NOTIFY at commit. */
  | 'pg-update-notify'
  /** The same update where a row trigger notifies (as migration 010's read-cache triggers do). */
  | 'pg-update-trigger'
  /** The baseline update, then a Redis PUBLISH once it committed (the Redis adapter's way). */
  | 'pg-update-then-publish'
  /** The rate counter upsert of limits/counters.ts (lazy commit), one per request. */
  | 'pg-counter'
  /** The Redis adapter's counter: INCR + PEXPIRE NX in one round trip. */
  | 'redis-counter'
  /** One round trip doing nothing: what the database costs at the least. */
  | 'pg-select';

export type ToWorker =
  | {
      role: 'writer';
      mode: WriterMode;
      databaseUrl: string;
      redisUrl: string;
      channel: string;
      concurrency: number;
      durationMs: number;
      /** Counter keys drawn from (client addresses). */
      keys: number;
    }
  | {
      role: 'listener';
      /** relayed: one PostgreSQL listener republishing to Redis (the adapter's relay), N subscribers. */
      kind: 'pg' | 'redis' | 'relayed';
      databaseUrl: string;
      redisUrl: string;
      channel: string;
      connections: number;
      /** The last connection stops reading (a frozen process): the queue keeps its messages. */
      stallLast?: boolean;
    }
  | { role: 'stop' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'written'; ops: number; errors: number; seconds: number; p99Ms: number }
  | {
      type: 'heard';
      received: number;
      perConnection: number[];
      p50Ms: number;
      p99Ms: number;
      maxMs: number;
    };

function send(message: FromWorker): void {
  process.send?.(message);
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
function stamp(): number {
  return performance.timeOrigin + performance.now();
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

async function listen(task: Extract<ToWorker, { role: 'listener' }>): Promise<void> {
  const latencies: number[] = [];
  const perConnection = new Array<number>(task.connections).fill(0);
  const closers: Array<() => Promise<unknown>> = [];
  const heard = (i: number, payload: string) => {
    perConnection[i] = (perConnection[i] ?? 0) + 1;
    // Latency is sampled from the first connection only: the others hear the same messages.
    if (i === 0) latencies.push(stamp() - Number(payload));
  };
  if (task.kind === 'relayed') {
    const relay = new pg.Client({ connectionString: task.databaseUrl });
    const publisher = new Redis(task.redisUrl);
    await relay.connect();
    relay.on('notification', (n) => void publisher.publish(task.channel, n.payload ?? '0'));
    await relay.query(`LISTEN ${task.channel}`);
    closers.push(
      () => relay.end(),
      () => publisher.quit(),
    );
  }
  for (let i = 0; i < task.connections; i += 1) {
    if (task.kind === 'pg') {
      const client = new pg.Client({ connectionString: task.databaseUrl });
      await client.connect();
      client.on('notification', (n) => heard(i, n.payload ?? '0'));
      await client.query(`LISTEN ${task.channel}`);
      // A backend inside a transaction delivers nothing until it ends: the queue must keep
      // every notification from there on (as for a process frozen mid-transaction).
      if (task.stallLast && i === task.connections - 1) await client.query('begin');
      closers.push(() => client.end());
    } else {
      const client = new Redis(task.redisUrl, { lazyConnect: true });
      await client.connect();
      client.on('message', (_channel: string, payload: string) => heard(i, payload));
      await client.subscribe(task.channel);
      closers.push(() => client.quit());
    }
  }
  send({ type: 'ready' });
  await new Promise<void>((resolve) =>
    process.on('message', (m: ToWorker) => m.role === 'stop' && resolve()),
  );
  // Let what is in flight arrive.
  await new Promise((r) => setTimeout(r, 300));
  latencies.sort((a, b) => a - b);
  send({
    type: 'heard',
    received: perConnection.reduce((a, b) => a + b, 0),
    perConnection,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.at(-1) ?? 0,
  });
  // A frozen connection never ends cleanly: the process's exit closes what is left.
  await Promise.race([
    Promise.all(closers.map((close) => close().catch(() => undefined))),
    new Promise((r) => setTimeout(r, 500)),
  ]);
}

async function write(task: Extract<ToWorker, { role: 'writer' }>): Promise<void> {
  const pool = new pg.Pool({ connectionString: task.databaseUrl, max: task.concurrency });
  const redis = new Redis(task.redisUrl);
  const window = 60_000;
  const one = async (slot: number): Promise<void> => {
    const id = slot + 1;
    switch (task.mode) {
      case 'pg-select':
        await pool.query('select 1');
        return;
      case 'pg-update':
        await pool.query('update bench_rows set n = n + 1 where id = $1', [id]);
        return;
      case 'pg-update-notify':
        await pool.query(
          `update bench_rows set n = n + 1 where id = $1 returning pg_notify('${task.channel}', $2)`,
          [id, String(stamp())],
        );
        return;
      case 'pg-update-trigger':
        // The trigger notifies with the row's note (the stamp).
        await pool.query('update bench_notified set n = n + 1, note = $2 where id = $1', [
          id,
          String(stamp()),
        ]);
        return;
      case 'pg-update-then-publish':
        await pool.query('update bench_rows set n = n + 1 where id = $1', [id]);
        await redis.publish(task.channel, String(stamp()));
        return;
      case 'pg-counter': {
        const now = Date.now();
        const start = new Date(Math.floor(now / window) * window);
        const key = `rl:POST /api/v1/payment/initiate:10.0.${Math.floor(Math.random() * task.keys)}`;
        await pool.query(
          `insert into rate_counters (key, window_start, count)
           select $1, $2, 1 from (select set_config('synchronous_commit', 'off', true)) as lazy
           on conflict (key, window_start) do update set count = rate_counters.count + 1
           returning count`,
          [key, start],
        );
        return;
      }
      case 'redis-counter': {
        const now = Date.now();
        const start = Math.floor(now / window) * window;
        const key = `bench:rl:POST /api/v1/payment/initiate:10.0.${Math.floor(Math.random() * task.keys)}:${start}`;
        await redis
          .multi()
          .incr(key)
          .pexpire(key, start + window - now + 1000, 'NX')
          .exec();
        return;
      }
    }
  };
  // Connections open before the clock starts.
  await Promise.all(Array.from({ length: task.concurrency }, () => pool.query('select 1')));
  await redis.ping();
  send({ type: 'ready' });
  const samples: number[] = [];
  let ops = 0;
  let errors = 0;
  const started = performance.now();
  const until = started + task.durationMs;
  await Promise.all(
    Array.from({ length: task.concurrency }, async (_, slot) => {
      while (performance.now() < until) {
        const t0 = performance.now();
        try {
          await one(slot);
          ops += 1;
          if (ops % 7 === 0) samples.push(performance.now() - t0);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  samples.sort((a, b) => a - b);
  send({ type: 'written', ops, errors, seconds, p99Ms: percentile(samples, 0.99) });
  await pool.end();
  redis.disconnect();
}

process.once('message', (task: ToWorker) => {
  const work =
    task.role === 'listener' ? listen(task) : task.role === 'writer' ? write(task) : null;
  work?.then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
