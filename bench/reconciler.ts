/**
 * Reconciler figure: payments settled per second from a backlog of pending payments whose
 * callbacks were lost. The real server runs as its own process with its background
 * reconciler on (the deployed loop, RECONCILE_INTERVAL_MS as deployed) and the Campay
 * adapter talking HTTP to a local fake Campay (one GET /api/transaction/{ref}/ per payment,
 * as Campay has no batch status call). The backlog is inserted straight into the database,
 * created a minute ago so every payment is due; the fake knows each transaction as
 * SUCCESSFUL. The rate is read from the database: settled payments over the time between
 * the first and the last settlement (settled_at, written by the server).
 *
 * Baseline, same run, same code: RECONCILE_CHECKS_IN_FLIGHT=1 (one status check at a time,
 * as the reconciler worked before issue 9).
 *
 * `npm run bench:reconciler` prints the figures; bench/run.ts calls `run`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { type Database, type Engine, openDatabase } from '../apps/api/src/db/database.js';
import { migrateToLatest } from '../apps/api/src/db/migrate.js';
import { type FakeCampay, startFakeCampay } from '../apps/api/test/support/campay-fake.js';
import { createFixture } from '../apps/api/test/support/fixtures.js';
import { type Figure, freshPostgres, startServer, waitFor } from './lib/live-processes.js';

const TARGET_PER_SECOND = 100;

interface Measure {
  settled: number;
  perSecond: number;
  seconds: number;
}

/** `count` pending Campay payments, each holding its own seat, due for a status check. */
async function insertCampayBacklog(database: Database, count: number, fake: FakeCampay) {
  const now = new Date();
  const fx = await createFixture(database, now);
  const createdAt = new Date(now.getTime() - 60_000);
  const holdUntil = new Date(now.getTime() + 24 * 3600_000);
  const date = new Date(now.getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
  const rows = await sql<{ id: string; provider_reference: string }>`
    with held as (
      insert into bookings (organization_id, service_id, slot_id, booking_date, seat, status,
                            hold_expires_at, cus_name, cus_email, phone_number)
      select ${fx.orgId}, ${fx.serviceId}, ${fx.slotIds[0]}, ${date}::date, g, 'held',
             ${holdUntil}, 'Bulk Payer', 'bulk@example.com', '+237677123456'
      from generate_series(1, ${count}::int) g
      returning id
    )
    insert into payments (booking_id, reference, request_fingerprint, provider, amount, currency,
                          phone_number, status, provider_reference, created_at, updated_at)
    select id, 'bench-' || id, 'bench', 'campay', 2, 'XAF', '+237677123456', 'PENDING',
           gen_random_uuid()::text, ${createdAt}, ${createdAt}
    from held
    returning id, provider_reference`.execute(database.db);
  for (const [i, row] of rows.rows.entries()) {
    fake.transactions.set(row.provider_reference, {
      reference: row.provider_reference,
      status: 'SUCCESSFUL',
      amount: '2',
      currency: 'XAF',
      from: '237677123456',
      description: 'Service Payment',
      external_reference: row.id,
      operator: 'MTN',
      code: `CP${String(i).padStart(6, '0')}`,
      operator_reference: String(1_000_000_000 + i),
      reason: '',
      created_at: createdAt.toISOString(),
    });
  }
}

export async function measure(engine: Engine, backlog: number, env: Record<string, string>) {
  const fake = await startFakeCampay();
  let pgDb: Awaited<ReturnType<typeof freshPostgres>> | null = null;
  let dataDir: string | null = null;
  let serverEnv: Record<string, string>;
  let database: Database;
  if (engine === 'postgres') {
    pgDb = await freshPostgres('qless_bench_reconciler');
    database = await openDatabase({ databaseUrl: pgDb.url, dataDir: null });
    serverEnv = { DATABASE_URL: pgDb.url };
  } else {
    dataDir = await mkdtemp(path.join(tmpdir(), 'qless-bench-reconciler-'));
    database = await openDatabase({ databaseUrl: null, dataDir });
    serverEnv = { DATA_DIR: dataDir, SEED_DEMO: 'false' };
  }
  try {
    await migrateToLatest(database.db);
    await insertCampayBacklog(database, backlog, fake);
    // PGlite is one process's database: the bench lets go before the server opens it.
    if (engine === 'pglite') await database.close();
    const server = await startServer(
      {
        ...serverEnv,
        PAYMENT_PROVIDER: 'campay',
        CAMPAY_BASE_URL: fake.baseUrl,
        CAMPAY_USERNAME: 'qless-app',
        CAMPAY_PASSWORD: 'qless-secret',
        CAMPAY_WEBHOOK_KEY: fake.webhookKey,
        CAMPAY_TIMEOUT_MS: '5000',
        OUTBOX_WORKER_ENABLED: 'false',
        ...env,
      },
      { readyTimeoutMs: 120_000 },
    );
    try {
      let settledSoFar = 0;
      const count = async () => {
        if (engine === 'postgres') {
          const r = await database.db
            .selectFrom('payments')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '<>', 'PENDING')
            .executeTakeFirstOrThrow();
          settledSoFar = Number(r.n);
        } else {
          // The server holds the PGlite files; ask it through the fake's request log instead.
          settledSoFar = fake.requests.filter((r) => r.route === 'transaction').length;
        }
        return settledSoFar >= backlog;
      };
      await waitFor(count, 600_000, 100);
      await server.stop();
      if (engine === 'pglite') database = await openDatabase({ databaseUrl: null, dataDir });
      const r = await sql<{ n: number; first: Date | null; last: Date | null }>`
        select count(*)::int as n, min(settled_at) as first, max(settled_at) as last
        from payments where status = 'SUCCESSFUL'`.execute(database.db);
      const row = r.rows[0];
      const n = row?.n ?? 0;
      const seconds =
        row?.first && row.last ? (row.last.getTime() - row.first.getTime()) / 1000 : 0;
      return {
        settled: n,
        seconds,
        perSecond: n > 1 && seconds > 0 ? (n - 1) / seconds : 0,
      } satisfies Measure;
    } finally {
      await server.stop();
    }
  } finally {
    await database.close().catch(() => undefined);
    await fake.close();
    await pgDb?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

export async function run(opts: { quick: boolean }): Promise<Figure[]> {
  const backlog = Number(process.env.BENCH_BACKLOG ?? (opts.quick ? 1000 : 5000));
  const engines: Engine[] = opts.quick ? ['postgres'] : ['postgres', 'pglite'];
  const figures: Figure[] = [];
  for (const engine of engines) {
    const before = await measure(engine, backlog, { RECONCILE_CHECKS_IN_FLIGHT: '1' });
    const after = await measure(engine, backlog, {});
    const complete = after.settled === backlog && before.settled === backlog;
    figures.push({
      name: `reconciler: payments settled per second (backlog ${backlog}, Campay fake over HTTP)`,
      engine,
      value: Math.round(after.perSecond),
      unit: 'payments/s',
      baseline: Math.round(before.perSecond),
      ratio: before.perSecond > 0 ? after.perSecond / before.perSecond : 0,
      target: `>= ${TARGET_PER_SECOND} payments/s`,
      met: complete && after.perSecond >= TARGET_PER_SECOND,
      detail:
        `${after.settled}/${backlog} settled in ${after.seconds.toFixed(1)} s; baseline ` +
        `(one check in flight) ${before.settled}/${backlog} in ${before.seconds.toFixed(1)} s`,
    });
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  for (const f of await run({ quick })) {
    console.log(
      `${(f.engine ?? '').padEnd(8)} ${f.name}: ${f.value} ${f.unit} (baseline ${f.baseline}, ` +
        `x${f.ratio?.toFixed(2)}) target ${f.target} ${f.met ? 'MET' : 'NOT MET'} — ${f.detail}`,
    );
  }
}
