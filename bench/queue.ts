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
import { openDatabase } from '../apps/api/src/db/database.js';
import { migrateToLatest } from '../apps/api/src/db/migrate.js';
import { VisitAccess } from '../apps/api/src/modules/queue/visit-access.js';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers.js';
import { createFixture } from '../apps/api/test/support/fixtures.js';
import {
  type Figure,
  freshPostgres,
  type MemoryUsage,
  ROOT,
  type ServerProcess,
  startServer,
} from './lib/live-processes.js';
import type { CallRecord, FromQueueLoad, QueueLoadPlan, ToQueueLoad } from './lib/queue-load.js';

const LOAD = path.join(ROOT, 'bench/lib/queue-load.ts');
type Engine = 'pglite' | 'postgres';

const inMemory = (m: MemoryUsage) => m.heapUsed + m.external;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

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

interface Sizes {
  counters: number;
  boards: number;
  customers: number;
  callingMs: number;
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

function figuresOf(
  engine: Engine,
  processes: number,
  sizes: Sizes,
  r: {
    joined: Extract<FromQueueLoad, { kind: 'joined' }>;
    following: Extract<FromQueueLoad, { kind: 'following' }>;
    called: Extract<FromQueueLoad, { kind: 'called' }>;
    memory: {
      before: MemoryUsage[];
      withFollowers: MemoryUsage[];
      after: MemoryUsage[];
      rssBefore: number[];
      rssWith: number[];
    };
  },
): Figure[] {
  const calls: CallRecord[] = r.called.calls;
  const toBoard = calls
    .flatMap((c) => c.boards)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  const boardMisses = calls.reduce((n, c) => n + c.boards.filter((v) => v === null).length, 0);
  const toTurn = calls
    .map((c) => c.turn)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  const turnMisses = calls.filter((c) => c.turn === null).length;
  const answers = calls.map((c) => c.answeredAt - c.sentAt).sort((a, b) => a - b);
  const followers = r.following.boards + r.following.turns;
  const sum = (ms: MemoryUsage[]) => ms.reduce((n, m) => n + inMemory(m), 0);
  const heapDelta = sum(r.memory.withFollowers) - sum(r.memory.before);
  const rssDelta =
    r.memory.rssWith.reduce((a, b) => a + b, 0) - r.memory.rssBefore.reduce((a, b) => a + b, 0);
  const mb = (n: number) => (n / 1048576).toFixed(1);
  const where = processes === 2 ? '2 processes' : '1 process';
  const seconds = sizes.callingMs / 1000;
  const common =
    `${sizes.counters} counters for ${seconds} s, ${calls.length} calls ` +
    `(${(calls.length / seconds).toFixed(1)}/s; ${r.called.refused} refused` +
    `${r.called.firstRefusal ? `, first: ${r.called.firstRefusal}` : ''}); ` +
    `${r.following.boards}/${sizes.boards} boards and ${r.following.turns}/${r.joined.ok} customers following ` +
    `(${r.joined.ok} joined in ${r.joined.seconds.toFixed(1)} s, ${r.joined.failed} refused` +
    `${r.joined.firstError ? `: ${r.joined.firstError}` : ''}; ${r.following.failed} sockets refused` +
    `${r.following.firstError ? `: ${r.following.firstError}` : ''}; ${r.called.closedEarly} closed early)`;
  const p99Board = quantile(toBoard, 0.99);
  const p99Turn = quantile(toTurn, 0.99);
  const p99Answer = quantile(answers, 0.99);
  const complete = calls.length > 0 && r.following.failed === 0 && r.joined.failed === 0;
  // A clerk's tap answered, and the hall shown, in a blink: two processes on PostgreSQL; the
  // embedded default (one process, one transaction at a time) is allowed twice as long.
  const target = engine === 'postgres' ? { answer: 150, shown: 500 } : { answer: 300, shown: 1000 };
  return [
    {
      name: `queue: Call next answered, p99 (${where})`,
      engine,
      value: Math.round(p99Answer),
      unit: 'ms',
      target: `<= ${target.answer} ms`,
      met: complete && p99Answer <= target.answer,
      detail:
        `p50 ${Math.round(quantile(answers, 0.5))} ms, p99 ${Math.round(p99Answer)} ms, ` +
        `max ${Math.round(quantile(answers, 1))} ms over ${answers.length} calls (the clerk's request leaving to its answer, on the load process's clock)`,
    },
    {
      name: `queue: Call next -> board shows it, p99 (${where})`,
      engine,
      value: Math.round(p99Board),
      unit: 'ms',
      target: `<= ${target.shown} ms`,
      met: complete && boardMisses === 0 && p99Board <= target.shown,
      detail:
        `p50 ${Math.round(quantile(toBoard, 0.5))} ms, p99 ${Math.round(p99Board)} ms, ` +
        `max ${Math.round(quantile(toBoard, 1))} ms over ${toBoard.length} (call, board) pairs; ` +
        `${boardMisses} never shown; ${r.called.boardMessages} board messages. ${common}`,
    },
    {
      name: `queue: Call next -> called customer's page, p99 (${where})`,
      engine,
      value: Math.round(p99Turn),
      unit: 'ms',
      target: `<= ${target.shown} ms`,
      met: complete && turnMisses === 0 && p99Turn <= target.shown,
      detail:
        `p50 ${Math.round(quantile(toTurn, 0.5))} ms, p99 ${Math.round(p99Turn)} ms, ` +
        `max ${Math.round(quantile(toTurn, 1))} ms over ${toTurn.length} calls; ${turnMisses} never told ` +
        `(${calls.filter((c) => c.sawCalled).length} saw "called" itself, the others "being served at" their counter first); ` +
        `Call next answered p50 ${Math.round(quantile(answers, 0.5))} ms, p99 ${Math.round(quantile(answers, 0.99))} ms; ` +
        `${r.called.turnMessages} turn messages, ${(r.called.bytesToTurns / Math.max(1, r.called.turnMessages)).toFixed(0)} B each on average ` +
        `(${(r.called.bytesToTurns / Math.max(1, r.following.turns) / 1024).toFixed(1)} KB per customer over ${seconds} s)`,
    },
    {
      name: `queue: server memory per follower (heap + external after GC, ${where})`,
      engine,
      value: followers > 0 ? Math.round((heapDelta / followers / 1024) * 10) / 10 : Number.NaN,
      unit: 'KB/follower',
      target: 'reported',
      met: followers > 0,
      detail:
        `${followers} followers (${r.following.boards} boards + ${r.following.turns} customers); ` +
        `heap+external ${mb(sum(r.memory.before))} MB -> ${mb(sum(r.memory.withFollowers))} MB ` +
        `(${mb(sum(r.memory.after))} MB after the calls); RSS ${mb(r.memory.rssBefore.reduce((a, b) => a + b, 0))} MB -> ` +
        `${mb(r.memory.rssWith.reduce((a, b) => a + b, 0))} MB (${followers > 0 ? (rssDelta / followers / 1024).toFixed(1) : '?'} KB/follower), ` +
        `${where} together`,
    },
  ];
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
