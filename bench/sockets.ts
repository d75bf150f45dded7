/**
 * Live-status figure: 1,000 payment status sockets over two server processes on one
 * PostgreSQL while the payments settle; every socket must get its final status.
 *
 * Two real server processes (simulator provider) share a fresh database; a separate load
 * process (bench/lib/socket-load.ts) initiates the payments, alternating processes, then
 * opens one socket per payment — half of them on the process that did not initiate it.
 * Memory is read inside each server after a full GC, before the sockets and with them all
 * open. Then every payment is made due at once: the simulator's references are rewritten to
 * "settled now" (one in ten declined) and the payments dated back, so the reconcilers of
 * both processes settle the lot (SKIP LOCKED) and each final status reaches its socket
 * through LISTEN/NOTIFY, from whichever process settled it. (Initiating 1,000 payments
 * takes a minute on a busy machine: a fixed SIMULATOR_DELAY_MS could not both keep every
 * payment pending until all sockets are open and settle them together.)
 *
 * `npx tsx bench/sockets.ts [--quick]` prints the figures; bench/run.ts calls `run`.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../apps/api/src/db/database.js';
import { migrateToLatest } from '../apps/api/src/db/migrate.js';
import { createFixture } from '../apps/api/test/support/fixtures.js';
import {
  type Figure,
  freshPostgres,
  type MemoryUsage,
  ROOT,
  type ServerProcess,
  startServer,
} from './lib/live-processes.js';
import type { FromLoad, LoadPlan, SocketOutcome, ToLoad } from './lib/socket-load.js';

const LOAD = path.join(ROOT, 'bench/lib/socket-load.ts');

function inMemory(m: MemoryUsage): number {
  return m.heapUsed + m.external;
}

export async function run(opts: { quick: boolean }): Promise<Figure[]> {
  const count = Number(process.env.BENCH_SOCKETS ?? (opts.quick ? 200 : 1000));
  const pgDb = await freshPostgres('qless_bench_sockets');
  const database = await openDatabase({ databaseUrl: pgDb.url, dataDir: null });
  const servers: ServerProcess[] = [];
  let load: ReturnType<typeof fork> | null = null;
  try {
    await migrateToLatest(database.db);
    const now = new Date();
    const fx = await createFixture(database, now);
    // 44 slots of 100 seats on one day hold the whole run's bookings.
    await database.db
      .updateTable('services')
      .set({ capacity: 100 })
      .where('id', '=', fx.serviceId)
      .execute();
    const date = new Date(now.getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
    const env = {
      DATABASE_URL: pgDb.url,
      SEED_DEMO: 'false',
      PAYMENT_PROVIDER: 'simulator',
      // Nothing settles by itself or is due for a check until the bench says so.
      SIMULATOR_DELAY_MS: '600000',
      RECONCILE_AFTER_MS: '600000',
      RECONCILE_INTERVAL_MS: '250',
      OUTBOX_WORKER_ENABLED: 'false',
      // The load comes from one address: the per-address limits would refuse it.
      STATUS_SOCKETS_PER_IP: '100000',
      RATE_LIMIT_INITIATE_PER_IP: '100000',
      RATE_LIMIT_INITIATE_PER_PHONE: '100000',
      PAYMENT_PROMPTS_PER_PHONE: '100000',
      HOLDS_PER_IP: '100000',
      HOLDS_PER_IP_PER_SERVICE: '100000',
    };
    servers.push(await startServer(env), await startServer(env));
    const child = fork(LOAD, [], {
      execArgv: ['--import', 'tsx'],
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    load = child;
    const inbox: FromLoad[] = [];
    const waiters: Array<() => void> = [];
    child.on('message', (m: FromLoad) => {
      inbox.push(m);
      for (const w of waiters.splice(0)) w();
    });
    const next = async <K extends FromLoad['kind']>(kind: K, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = inbox.findIndex((m) => m.kind === kind);
        if (i >= 0) return inbox.splice(i, 1)[0] as Extract<FromLoad, { kind: K }>;
        if (Date.now() > deadline) throw new Error(`load process: no "${kind}" in time`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 1000);
        });
      }
    };
    const tell = (m: ToLoad) => child.send(m);
    const plan: LoadPlan = {
      origins: [servers[0]?.origin ?? '', servers[1]?.origin ?? ''],
      count,
      serviceId: fx.serviceId,
      slotIds: fx.slotIds,
      date,
      concurrency: 16,
    };
    tell({ kind: 'plan', plan });
    const initiated = await next('initiated', 600_000);
    const before = await Promise.all(servers.map((s) => s.memory()));
    const rssBefore = await Promise.all(servers.map((s) => s.rss()));
    tell({ kind: 'open' });
    const opened = await next('open', 120_000);
    const withSockets = await Promise.all(servers.map((s) => s.memory()));
    const rssWith = await Promise.all(servers.map((s) => s.rss()));
    const settleFrom = Date.now();
    await sql`
      update payments
      set provider_reference = regexp_replace(provider_reference, '^sim_([SFP])_[0-9]+_',
                                              'sim_\\1_' || ${settleFrom}::bigint || '_'),
          created_at = created_at - interval '20 minutes',
          last_checked_at = null
      where status = 'PENDING'`.execute(database.db);
    const done = await next('done', 300_000);
    tell({ kind: 'stop' });

    const outcomes: SocketOutcome[] = done.outcomes;
    const settled = await sql<{ id: string; status: string; settled_at: Date | null }>`
      select id, status, settled_at from payments`.execute(database.db);
    const byId = new Map(settled.rows.map((r) => [r.id, r]));
    const right = outcomes.filter(
      (o) => o.finalAt !== null && o.finalStatus === byId.get(o.paymentId)?.status,
    );
    const crossed = right.filter((o) => o.socketOn !== o.initiatedOn).length;
    const lags = right
      .map((o) => (o.finalAt ?? 0) - (byId.get(o.paymentId)?.settled_at?.getTime() ?? 0))
      .sort((a, b) => a - b);
    const lastSettled = Math.max(...settled.rows.map((r) => r.settled_at?.getTime() ?? 0));
    const lastFinal = Math.max(...right.map((o) => o.finalAt ?? 0));
    const firstSettled = Math.min(
      ...settled.rows.map((r) => r.settled_at?.getTime() ?? Number.POSITIVE_INFINITY),
    );
    const openAtMeasure = opened.open - opened.finalsSoFar;
    const heapDelta = withSockets.reduce(
      (n, m, i) => n + inMemory(m) - inMemory(before[i] as MemoryUsage),
      0,
    );
    const rssDelta = rssWith.reduce((n, r, i) => n + r - (rssBefore[i] ?? 0), 0);
    const perSocketKb = openAtMeasure > 0 ? heapDelta / openAtMeasure / 1024 : 0;
    const rssPerSocketKb = openAtMeasure > 0 ? rssDelta / openAtMeasure / 1024 : 0;
    const failures = outcomes.filter((o) => !right.includes(o));
    const p = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? 0;
    const common = `${count} payments initiated (${initiated.ok} ok, ${initiated.failed} refused${initiated.firstError ? `: ${initiated.firstError}` : ''}) in ${initiated.seconds.toFixed(1)} s over 2 processes`;
    return [
      {
        name: 'live status: sockets that got their final status (2 processes)',
        engine: 'postgres',
        value: right.length,
        unit: 'sockets',
        target: `${count}/${count}`,
        met: right.length === count,
        detail:
          `${common}; ${opened.open} sockets opened in ${opened.seconds.toFixed(1)} s ` +
          `(${opened.failed} refused${opened.firstError ? `: ${opened.firstError}` : ''}); ` +
          `${crossed} of them watched from the process that did not initiate the payment` +
          (failures.length > 0 ? `; first miss: ${JSON.stringify(failures[0])}` : ''),
      },
      {
        name: 'live status: time to the last final status (payments settled by 2 reconcilers)',
        engine: 'postgres',
        value: Math.round(lastFinal - settleFrom),
        unit: 'ms',
        target: 'every socket gets its final status (reported)',
        met: right.length === count,
        detail:
          `from "all due" to the last socket's final status; settlements spread over ` +
          `${((lastSettled - firstSettled) / 1000).toFixed(1)} s; settlement -> socket lag ` +
          `p50 ${Math.round(p(0.5))} ms, p99 ${Math.round(p(0.99))} ms, max ${Math.round(p(1))} ms; ` +
          `last final ${lastFinal - lastSettled} ms after the last settlement`,
      },
      {
        name: 'live status: server memory per open socket (heap + external, after GC)',
        engine: 'postgres',
        value: Math.round(perSocketKb * 10) / 10,
        unit: 'KB/socket',
        target: 'reported',
        met: true,
        detail:
          `${openAtMeasure} sockets open at measure; heap+external ${(
            before.reduce((n, m) => n + inMemory(m), 0) / 1048576
          ).toFixed(
            1,
          )} MB -> ${(withSockets.reduce((n, m) => n + inMemory(m), 0) / 1048576).toFixed(1)} MB, ` +
          `RSS ${(rssBefore.reduce((a, b) => a + b, 0) / 1048576).toFixed(1)} MB -> ${(rssWith.reduce((a, b) => a + b, 0) / 1048576).toFixed(1)} MB ` +
          `(${rssPerSocketKb.toFixed(1)} KB/socket), both processes together`,
      },
    ];
  } finally {
    load?.kill();
    await Promise.all(servers.map((s) => s.stop()));
    await database.close();
    await pgDb.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  for (const f of await run({ quick })) {
    console.log(
      `${f.name}: ${f.value} ${f.unit} — target ${f.target} ${f.met ? 'MET' : 'NOT MET'}\n  ${f.detail}`,
    );
  }
}
