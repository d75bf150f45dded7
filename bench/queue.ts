/**
 * The queue's live figures (issue 19): a branch's busy morning on the production server.
 *
 * PostgreSQL: two server processes on one database; PGlite: one process. 20 counters, each
 * opened by its own clerk, call the next person about once a second (Call next, then Start:
 * the next Call next finishes the visit as done); 50 boards and 2,000 customers (joined
 * from the poster's page) follow over their WebSockets, alternating processes, so most
 * changes cross processes through LISTEN/NOTIFY. A separate load process
 * (bench/lib/queue-load.ts) times, on its own clock, each Call next from the request
 * leaving to each board's first message showing the number at that counter and to the
 * called customer's turn message. Memory is read inside each server after a full GC
 * before the sockets open and with all of them open: the difference over the followers.
 *
 * `npx tsx bench/queue.ts [--quick] [--engines=postgres]` prints the figures; bench/run.ts
 * calls `run` (group `queue`).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zonedNow } from '@qless/contract/core';
import { VisitAccess } from '../apps/api/src/core/access/visit-access.js';
import { openDatabase } from '../apps/api/src/db/database.js';
import { migrateToLatest } from '../apps/api/src/db/migrate.js';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers.js';
import { createFixture } from '../apps/api/test/support/fixtures.js';
import {
  type Figure,
  freshPostgres,
  ROOT,
  type ServerProcess,
  startServer,
} from './lib/live-processes.js';
import { type Engine, figuresOf, type Sizes } from './lib/queue-figures.js';
import type { FromQueueLoad, QueueLoadPlan, ToQueueLoad } from './lib/queue-load.js';

const LOAD = path.join(ROOT, 'bench/lib/queue-load.ts');

async function api<T>(
  origin: string,
  method: string,
  url: string,
  session: string | null,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${origin}${url}`, {
    method,
    headers: {
      ...(session ? { authorization: `Bearer ${session}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function signIn(origin: string, email: string): Promise<string> {
  const { token } = await api<{ token: string }>(origin, 'POST', '/api/v1/auth/login', null, {
    email,
    password: TEST_PASSWORD,
  });
  return token;
}

/**
 * The morning's line, written before the servers start as the join page would leave it
 * (a number per service letter, the day's counts, each visitor's key from the app's own
 * secret): the figures are about calling and following, and 2,000 joins through the API
 * take minutes on a loaded 2-core machine (each one reorders the whole line).
 */
async function queueOf(
  database: Awaited<ReturnType<typeof openDatabase>>,
  orgId: string,
  serviceIds: string[],
  count: number,
): Promise<QueueLoadPlan['customers']> {
  const db = database.db;
  const access = await VisitAccess.load(db);
  const now = new Date();
  const date = zonedNow('Africa/Douala', now).date;
  const letters = ['A', 'B', 'C'];
  for (const [i, id] of serviceIds.entries()) {
    await db
      .updateTable('services')
      .set({ queue_letter: letters[i] ?? 'C' })
      .where('id', '=', id)
      .execute();
  }
  const rows = Array.from({ length: count }, (_, i) => {
    const service = i % serviceIds.length;
    const at = new Date(now.getTime() - (count - i) * 1000);
    return {
      organization_id: orgId,
      service_id: serviceIds[service] ?? '',
      visit_date: date,
      letter: letters[service] ?? 'C',
      number: Math.floor(i / serviceIds.length) + 1,
      source: 'self' as const,
      customer_name: `Bench Customer ${i}`,
      locale: i % 2 === 0 ? ('fr' as const) : ('en' as const),
      arrived_at: at,
      queued_at: at,
    };
  });
  const ids: string[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const made = await db
      .insertInto('visits')
      .values(rows.slice(i, i + 500))
      .returning('id')
      .execute();
    ids.push(...made.map((r) => r.id));
  }
  for (const [i] of serviceIds.entries()) {
    await db
      .insertInto('visit_numbers')
      .values({
        organization_id: orgId,
        visit_date: date,
        letter: letters[i] ?? 'C',
        last_number: rows.filter((r) => r.letter === (letters[i] ?? 'C')).length,
      })
      .execute();
  }
  return ids.map((visitId, i) => ({ visitId, key: access.keyFor(visitId), origin: i % 2 }));
}

export async function runEngine(engine: Engine, sizes: Sizes): Promise<Figure[]> {
  const processes = engine === 'postgres' ? 2 : 1;
  const pgDb = engine === 'postgres' ? await freshPostgres('qless_bench_queue') : null;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qless-bench-queue-'));
  const servers: ServerProcess[] = [];
  let load: ReturnType<typeof fork> | null = null;
  try {
    // The data is made before the servers start: a PGlite folder has one owner at a time.
    const database = await openDatabase({ databaseUrl: pgDb?.url ?? null, dataDir });
    let orgId: string;
    let serviceIds: string[];
    let customers: QueueLoadPlan['customers'] = [];
    try {
      await migrateToLatest(database.db);
      const fx = await createFixture(database, new Date(), `-queue-${engine}`);
      orgId = fx.orgId;
      // Three services: 2,000 visitors are more than one letter's 999 numbers a day.
      const third = await database.db
        .insertInto('services')
        .values({ organization_id: fx.orgId, name: 'Counter 20', duration_minutes: 20 })
        .returning('id')
        .executeTakeFirstOrThrow();
      serviceIds = [fx.serviceId, fx.otherServiceId, third.id];
      // Open all day, every day: the bench runs whatever the hour in Douala.
      await database.db
        .updateTable('organizations')
        .set({ start_time: '00:00', end_time: '23:59', open_days: 127 })
        .where('id', '=', orgId)
        .execute();
      await createUser(database.db, {
        email: 'admin@bench.cm',
        role: 'org_admin',
        organizationId: orgId,
      });
      customers = await queueOf(database, orgId, serviceIds, sizes.customers);
      for (let c = 0; c < sizes.counters; c++) {
        await createUser(database.db, {
          email: `clerk${c}@bench.cm`,
          role: 'staff',
          organizationId: orgId,
        });
      }
    } finally {
      await database.close();
    }
    const env: Record<string, string> = {
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      PAYMENT_PROVIDER: 'simulator',
      OUTBOX_WORKER_ENABLED: 'false',
      // The customers' joins carry their own address (one proxy hop is trusted): the join
      // limits (5 an hour per address) then count each customer's phone, as in a hall.
      TRUST_PROXY: '1',
      // Every live socket (status, board, turn) counts against one per-address maximum.
      STATUS_SOCKETS_PER_IP: '100000',
      LOGIN_FAILURES_PER_IP: '100000',
    };
    // A loaded machine starts PGlite (WASM) slowly.
    for (let p = 0; p < processes; p++)
      servers.push(await startServer(env, { readyTimeoutMs: 240_000 }));
    const origins = servers.map((s) => s.origin);
    const origin = origins[0] ?? '';
    const admin = await signIn(origin, 'admin@bench.cm');
    const settings = await api<{ settings: Record<string, unknown> }>(
      origin,
      'GET',
      '/api/v1/queue/settings',
      admin,
    );
    await api(origin, 'PUT', '/api/v1/queue/settings', admin, {
      ...settings.settings,
      join_enabled: true,
    });
    const counters: QueueLoadPlan['counters'] = [];
    for (let c = 0; c < sizes.counters; c++) {
      const name = `Guichet ${c + 1}`;
      const made = await api<{ counter: { counter_id: string } }>(
        origin,
        'POST',
        '/api/v1/queue/counters',
        admin,
        { name, service_ids: serviceIds },
      );
      const clerkOrigin = origins[c % origins.length] ?? '';
      const session = await signIn(clerkOrigin, `clerk${c}@bench.cm`);
      await api(
        clerkOrigin,
        'POST',
        `/api/v1/queue/counters/${made.counter.counter_id}/open`,
        session,
        {},
      );
      counters.push({ id: made.counter.counter_id, name, session });
    }
    const boards: QueueLoadPlan['boards'] = [];
    for (let b = 0; b < sizes.boards; b++) {
      const made = await api<{ token: string }>(origin, 'POST', '/api/v1/queue/boards', admin, {
        name: `Hall ${b + 1}`,
      });
      boards.push({ token: made.token });
    }

    const child = fork(LOAD, [], {
      execArgv: ['--import', 'tsx'],
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    load = child;
    const inbox: FromQueueLoad[] = [];
    const waiters: Array<() => void> = [];
    child.on('message', (m: FromQueueLoad) => {
      inbox.push(m);
      for (const w of waiters.splice(0)) w();
    });
    const next = async <K extends FromQueueLoad['kind']>(kind: K, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = inbox.findIndex((m) => m.kind === kind);
        if (i >= 0) return inbox.splice(i, 1)[0] as Extract<FromQueueLoad, { kind: K }>;
        if (child.exitCode !== null) throw new Error(`load process exited with ${child.exitCode}`);
        if (Date.now() > deadline) throw new Error(`load process: no "${kind}" in time`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 1000);
        });
      }
    };
    const tell = (m: ToQueueLoad) => child.send(m);
    tell({
      kind: 'plan',
      plan: {
        origins,
        organizationId: orgId,
        serviceIds,
        customers,
        boards,
        counters,
        callingMs: sizes.callingMs,
        callEveryMs: 1000,
      },
    });
    const joined = await next('joined', 60_000);
    const before = await Promise.all(servers.map((s) => s.memory()));
    const rssBefore = await Promise.all(servers.map((s) => s.rss()));
    tell({ kind: 'follow' });
    const following = await next('following', 300_000);
    // Let the first snapshots leave before reading what the open sockets cost.
    await new Promise((r) => setTimeout(r, 2000));
    const withFollowers = await Promise.all(servers.map((s) => s.memory()));
    const rssWith = await Promise.all(servers.map((s) => s.rss()));
    tell({ kind: 'call' });
    const called = await next('called', sizes.callingMs + 120_000);
    const after = await Promise.all(servers.map((s) => s.memory()));
    tell({ kind: 'stop' });
    return figuresOf(engine, processes, sizes, {
      joined,
      following,
      called,
      memory: { before, withFollowers, after, rssBefore, rssWith },
    });
  } finally {
    load?.kill();
    await Promise.all(servers.map((s) => s.stop()));
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(opts: { quick: boolean; engines?: Engine[] }): Promise<Figure[]> {
  const sizes: Sizes = {
    counters: Number(process.env.BENCH_QUEUE_COUNTERS ?? 20),
    boards: Number(process.env.BENCH_QUEUE_BOARDS ?? (opts.quick ? 10 : 50)),
    customers: Number(process.env.BENCH_QUEUE_CUSTOMERS ?? (opts.quick ? 400 : 2000)),
    callingMs: Number(process.env.BENCH_QUEUE_SECONDS ?? (opts.quick ? 10 : 30)) * 1000,
  };
  const figures: Figure[] = [];
  for (const engine of opts.engines ?? (['postgres', 'pglite'] as const)) {
    try {
      figures.push(...(await runEngine(engine, sizes)));
    } catch (err) {
      figures.push({
        name: 'queue',
        engine,
        value: Number.NaN,
        unit: '',
        target: 'runs',
        met: false,
        detail: `failed: ${String((err as Error).stack ?? err).slice(0, 2000)}`,
      });
    }
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const enginesArg = process.argv.find((a) => a.startsWith('--engines='));
  const engines = enginesArg?.slice('--engines='.length).split(',') as Engine[] | undefined;
  for (const f of await run({ quick, ...(engines ? { engines } : {}) })) {
    console.log(
      `${f.engine} ${f.name}: ${f.value} ${f.unit} — target ${f.target} ${f.met ? 'MET' : 'NOT MET'}\n  ${f.detail}`,
    );
  }
}
