/**
 * Where one PostgreSQL stops carrying what Qless asks of it beyond storing data (issue 21
 * item 7, decision 033): fan-out by LISTEN/NOTIFY, rate counters by upsert, and read-cache
 * invalidation by trigger — each against the same work done with Redis on this machine.
 *
 * Every case runs a writer process (bench/lib/beyond-one-db-worker.ts, 8 connections in a
 * closed loop) and, for fan-out, a listener process holding N connections (N = 3, 10, 30:
 * one per server process of a deployment). Each row's baseline runs in the same run, so the
 * ratios stand even on this shared, noisy machine. Meanwhile this process samples
 * pg_notification_queue_usage().
 *
 * `npx tsx bench/beyond-one-db.ts [--seconds=3]` prints a table. Needs PostgreSQL
 * (BENCH_DATABASE_URL or 127.0.0.1:5432) and Redis (BENCH_REDIS_URL or 127.0.0.1:6379).
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { FromWorker, ToWorker, WriterMode } from './lib/beyond-one-db-worker.js';
import { freshPostgres, ROOT } from './lib/live-processes.js';

const WORKER = path.join(ROOT, 'bench/lib/beyond-one-db-worker.ts');
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHANNEL = 'bench_fanout';
const CONCURRENCY = 8;
/** PostgreSQL's notification queue holds 8 GB at most; usage is a share of it. */
const QUEUE_BYTES = 8 * 1024 ** 3;
const secondsArg = process.argv.find((a) => a.startsWith('--seconds='));
const DURATION_MS = Number(secondsArg?.split('=')[1] ?? 3) * 1000;

interface Row {
  group: string;
  case: string;
  listeners: number;
  opsPerSec: number;
  writeP99Ms: number;
  deliveredShare: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  queueMax: number | null;
  errors: number;
}

function start(): ChildProcess {
  return fork(WORKER, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function next(child: ChildProcess): Promise<FromWorker> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`worker exited ${code}`));
    child.once('exit', onExit);
    child.once('message', (m: FromWorker) => {
      child.off('exit', onExit);
      resolve(m);
    });
  });
}

async function setUp(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`
    create table bench_rows (id int primary key, n int not null default 0);
    create table bench_notified (id int primary key, n int not null default 0, note text);
    insert into bench_rows (id) select generate_series(1, 64);
    insert into bench_notified (id) select generate_series(1, 64);
    create function bench_notify() returns trigger language plpgsql as $$
      begin perform pg_notify('${CHANNEL}', new.note); return null; end $$;
    create trigger bench_notified_notify after update on bench_notified
      for each row execute function bench_notify();
    create table rate_counters (key text not null, window_start timestamptz not null,
      count int not null, primary key (key, window_start));`);
  await c.end();
}

async function runCase(
  url: string,
  group: string,
  label: string,
  mode: WriterMode,
  listen: { kind: 'pg' | 'redis' | 'relayed'; connections: number; stallLast?: boolean } | null,
): Promise<Row> {
  let listener: ChildProcess | null = null;
  if (listen) {
    listener = start();
    const ready = next(listener);
    listener.send({
      role: 'listener',
      kind: listen.kind,
      databaseUrl: url,
      redisUrl: REDIS_URL,
      channel: CHANNEL,
      connections: listen.connections,
      stallLast: listen.stallLast ?? false,
    } satisfies ToWorker);
    await ready;
  }
  const writer = start();
  const ready = next(writer);
  writer.send({
    role: 'writer',
    mode,
    databaseUrl: url,
    redisUrl: REDIS_URL,
    channel: CHANNEL,
    concurrency: CONCURRENCY,
    durationMs: DURATION_MS,
    keys: 1000,
  } satisfies ToWorker);
  await ready;
  const done = next(writer);
  // The notification queue grows when a listener falls behind the writers.
  const probe = new pg.Client({ connectionString: url });
  await probe.connect();
  let queueMax = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const { rows } = await probe.query<{ u: number }>(
        'select pg_notification_queue_usage() as u',
      );
      queueMax = Math.max(queueMax, Number(rows[0]?.u ?? 0));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const written = await done;
  sampling = false;
  await sampler;
  await probe.end();
  if (written.type !== 'written') throw new Error('writer: unexpected message');
  let heard: Extract<FromWorker, { type: 'heard' }> | null = null;
  if (listener && listen) {
    const result = next(listener);
    listener.send({ role: 'stop' } satisfies ToWorker);
    const m = await result;
    if (m.type === 'heard') heard = m;
  }
  return {
    group,
    case: label,
    listeners: listen?.connections ?? 0,
    opsPerSec: written.ops / written.seconds,
    writeP99Ms: written.p99Ms,
    deliveredShare: heard && listen ? heard.received / (written.ops * listen.connections) : null,
    p50Ms: heard?.p50Ms ?? null,
    p99Ms: heard?.p99Ms ?? null,
    queueMax: listen && listen.kind !== 'redis' ? queueMax : null,
    errors: written.errors,
  };
}

function fmt(n: number | null, digits = 1): string {
  return n === null ? '–' : n.toFixed(digits);
}

async function main(): Promise<void> {
  const database = await freshPostgres('qless_bench_beyond');
  const redis = new Redis(REDIS_URL);
  const rows: Row[] = [];
  try {
    await setUp(database.url);
    const run = async (
      ...args: Parameters<typeof runCase> extends [string, ...infer R] ? R : never
    ) => {
      const row = await runCase(database.url, ...args);
      rows.push(row);
      console.error(
        `  ${row.group} · ${row.case} (${row.listeners}): ${row.opsPerSec.toFixed(0)}/s`,
      );
    };
    // (a) fan-out: a write that tells every process (payment status, queue change).
    await run('fan-out', 'update (no message)', 'pg-update', null);
    // What the writers pay with nobody listening (in a deployment the listeners run on other
    // machines; on this 2-core one they take the writers' CPU).
    await run('fan-out', 'update + NOTIFY', 'pg-update-notify', null);
    await run('fan-out', 'update, then Redis PUBLISH', 'pg-update-then-publish', null);
    for (const n of [3, 10, 30])
      await run('fan-out', 'update + NOTIFY', 'pg-update-notify', { kind: 'pg', connections: n });
    for (const n of [3, 10, 30]) {
      await run('fan-out', 'update, then Redis PUBLISH', 'pg-update-then-publish', {
        kind: 'redis',
        connections: n,
      });
    }
    // What REDIS_URL does: writers still NOTIFY; one relay listens and publishes to Redis.
    for (const n of [3, 30]) {
      await run('fan-out', 'update + NOTIFY, relayed to Redis', 'pg-update-notify', {
        kind: 'relayed',
        connections: n,
      });
    }
    // One listener of 3 that cannot take its messages (inside a transaction, as a process
    // frozen mid-transaction): the queue keeps everything from there on.
    await run('fan-out', 'update + NOTIFY, 1 listener frozen', 'pg-update-notify', {
      kind: 'pg',
      connections: 3,
      stallLast: true,
    });
    // (c) read-cache invalidation: the row trigger of migration 010.
    await run('invalidation', 'update, trigger NOTIFY', 'pg-update-trigger', {
      kind: 'pg',
      connections: 3,
    });
    await run('invalidation', 'update, trigger NOTIFY', 'pg-update-trigger', {
      kind: 'pg',
      connections: 30,
    });
    // (b) rate counters, one per limited request.
    await run('counters', 'select 1 (round trip)', 'pg-select', null);
    await run('counters', 'counter upsert', 'pg-counter', null);
    await run('counters', 'Redis INCR + PEXPIRE', 'redis-counter', null);
  } finally {
    // The counters' keys (they expire in a minute anyway); nothing else of this Redis.
    const keys = await redis.keys('bench:rl:*').catch(() => [] as string[]);
    if (keys.length > 0) await redis.del(...keys).catch(() => undefined);
    redis.disconnect();
    await database.drop();
  }
  const base = (group: string) => rows.find((r) => r.group === group)?.opsPerSec ?? 1;
  const update = base('fan-out');
  const lines = [
    '| what | case | listeners | ops/s | ratio | write p99 ms | delivered | latency p50 / p99 ms | queue max (of 8 GB) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => {
      const ratio = r.opsPerSec / (r.group === 'counters' ? base('counters') : update);
      return `| ${r.group} | ${r.case} | ${r.listeners} | ${r.opsPerSec.toFixed(0)} | ${ratio.toFixed(2)} | ${fmt(r.writeP99Ms)} | ${
        r.deliveredShare === null ? '–' : r.deliveredShare.toFixed(3)
      } | ${fmt(r.p50Ms)} / ${fmt(r.p99Ms)} | ${r.queueMax === null ? '–' : `${Math.round((r.queueMax * QUEUE_BYTES) / 1024)} KB`} |${
        r.errors ? ` ${r.errors} errors` : ''
      }`;
    }),
  ];
  console.log(
    `\nBeyond one database (${CONCURRENCY} writer connections, ${DURATION_MS / 1000} s per case; ratio: to "update (no message)" for fan-out and invalidation, to "select 1" for counters)\n`,
  );
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
