/**
 * `npm run bench`: server-side figures as ratios against a baseline measured in the same
 * run (this machine is shared and noisy, so absolute numbers mean little).
 *
 * 1. The week-of-slots read (slots + taken bookings of one service for a week) against a
 *    bare route that touches no database, on PGlite and on PostgreSQL when reachable.
 * 2. 200 concurrent payment initiations for one slot and date: counts and time, against
 *    200 concurrent bare requests.
 */
import { randomBytes } from 'node:crypto';
import { DEFAULT_TIME_ZONE } from '@qless/contract';
import { buildApp } from '../apps/api/src/app.js';
import { FixedClock } from '../apps/api/src/clock.js';
import { loadConfig } from '../apps/api/src/config.js';
import type { Database, Engine } from '../apps/api/src/db/database.js';
import { seedDemo } from '../apps/api/src/demo/seed.js';
// The same scratch databases as the API tests: PGlite in memory, or a fresh PostgreSQL database.
import { createTestDatabase } from '../apps/api/test/support/test-db.js';

const NOW = new Date('2026-03-04T08:30:00Z');
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 4) * 1000;
const CONCURRENCY = 16;

interface Run {
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
}

/** Keeps CONCURRENCY requests in flight for DURATION_MS; every response must be 200. */
async function load(urls: string[]): Promise<Run> {
  const latencies: number[] = [];
  const end = performance.now() + DURATION_MS;
  let i = 0;
  async function worker() {
    while (performance.now() < end) {
      const url = urls[i++ % urls.length] as string;
      const t = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      latencies.push(performance.now() - t);
    }
  }
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.floor((latencies.length - 1) * p)] ?? 0;
  return {
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50: pct(0.5),
    p95: pct(0.95),
  };
}

async function openEngine(
  engine: Engine,
): Promise<{ database: Database; drop: () => Promise<void> } | null> {
  try {
    const { database, cleanup } = await createTestDatabase(engine);
    return { database, drop: cleanup };
  } catch {
    return null; // PostgreSQL not reachable
  }
}

async function benchEngine(engine: Engine): Promise<void> {
  const opened = await openEngine(engine);
  if (!opened) {
    console.log(`\n## ${engine}: not reachable, skipped`);
    return;
  }
  const { database, drop } = opened;
  await seedDemo(database.db, NOW, DEFAULT_TIME_ZONE);
  const config = loadConfig({
    NODE_ENV: 'production',
    PAYMENT_PROVIDER: 'simulator',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '/nonexistent',
    RECONCILER_ENABLED: 'false',
    SIMULATOR_DELAY_MS: '600000',
    RATE_LIMIT_INITIATE_PER_IP: '1000000',
    RATE_LIMIT_INITIATE_PER_PHONE: '1000000',
  });
  const app = await buildApp({ config, database, clock: new FixedClock(NOW) });
  app.get('/bench/bare', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const base = `http://127.0.0.1:${address.port}`;
  try {
    const service = await database.db
      .selectFrom('services')
      .select(['id', 'organization_id'])
      .where('slug', '=', 'account-opening')
      .executeTakeFirstOrThrow();
    const week = [
      `${base}/api/v1/service/${service.id}/slots`,
      `${base}/api/v1/service/${service.id}/bookings?start=2026-03-01&end=2026-03-07`,
    ];
    await load([`${base}/bench/bare`, ...week]); // warm-up
    const bare = await load([`${base}/bench/bare`]);
    const weekRun = await load(week);
    const orgs = await load([`${base}/api/v1/organizations`]);
    console.log(`\n## ${engine}: reads (${CONCURRENCY} in flight, ${DURATION_MS / 1000} s each)`);
    console.table({
      'bare route (baseline)': fmt(bare, bare),
      'week view: slots + bookings': fmt(weekRun, bare),
      'organization list': fmt(orgs, bare),
    });

    const slot = await database.db
      .selectFrom('slots')
      .select('id')
      .where('service_id', '=', service.id)
      .orderBy('start_time')
      .executeTakeFirstOrThrow();
    const body = (i: number) =>
      JSON.stringify({
        cus_name: 'Bench Customer',
        cus_email: 'bench@example.com',
        phone_number: `6770${String(i).padStart(5, '0')}`,
        amount: 2,
        currency: 'XAF',
        reference: `bench-${engine}-${i}-${randomBytes(4).toString('hex')}`,
        service_id: service.id,
        slot_id: slot.id,
        date: '2026-03-12',
      });
    let t = performance.now();
    await Promise.all(
      Array.from({ length: 200 }, () => fetch(`${base}/bench/bare`).then((r) => r.arrayBuffer())),
    );
    const bareBurst = performance.now() - t;
    t = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fetch(`${base}/api/v1/payment/initiate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body(i),
        }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    const burst = performance.now() - t;
    const won = statuses.filter((s) => s === 201).length;
    const lost = statuses.filter((s) => s === 409).length;
    console.log(
      `contention: 200 concurrent initiations, one slot → ${won} × 201, ${lost} × 409, ` +
        `${statuses.length - won - lost} other; ${burst.toFixed(0)} ms = ${(burst / bareBurst).toFixed(1)} × 200 bare requests (${bareBurst.toFixed(0)} ms)`,
    );
    if (won !== 1 || lost !== 199) process.exitCode = 1;
  } finally {
    await app.close();
    await drop();
  }
}

function fmt(run: Run, baseline: Run) {
  return {
    'req/s': Math.round(run.perSecond),
    'throughput ÷ baseline': Number((run.perSecond / baseline.perSecond).toFixed(2)),
    'p50 ms': Number(run.p50.toFixed(2)),
    'p95 ms': Number(run.p95.toFixed(2)),
    'p50 ÷ baseline': Number((run.p50 / baseline.p50).toFixed(2)),
  };
}

for (const engine of ['pglite', 'postgres'] as const) await benchEngine(engine);
