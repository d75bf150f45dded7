/**
 * `npm run bench:reconciler`: how fast the reconciler settles a backlog of pending
 * (simulator) payments, with the sweep of before issue 9 (50 per sweep, one at a time, one
 * sweep every RECONCILE_INTERVAL_MS = 5 s) and today's (batches of 200, 12 in flight, until
 * the backlog is done), measured in the same run on PGlite and PostgreSQL.
 */
import { FixedClock } from '../apps/api/src/clock.js';
import type { Engine } from '../apps/api/src/db/database.js';
import { Reconciler, type ReconcilerConfig } from '../apps/api/src/modules/payments/reconciler.js';
import { createFixture } from '../apps/api/test/support/fixtures.js';
import { insertPendingBacklog } from '../apps/api/test/support/payment-backlog.js';
import { createTestApp, PINNED_NOW } from '../apps/api/test/support/test-app.js';
import { createTestDatabase } from '../apps/api/test/support/test-db.js';

const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 3000);
const INTERVAL_MS = 5000;
const BEFORE: Partial<ReconcilerConfig> = { batchSize: 50, batchesPerSweep: 1, checksInFlight: 1 };

async function measure(engine: Engine, settings: Partial<ReconcilerConfig>, label: string) {
  const tdb = await createTestDatabase(engine);
  const clock = new FixedClock(PINNED_NOW);
  const { app } = await createTestApp(tdb.database, { clock });
  try {
    const fx = await createFixture(tdb.database, clock.now());
    await insertPendingBacklog(tdb.database, fx, BACKLOG, clock.now());
    clock.advance(60_000);
    const p = app.payments;
    const reconciler = new Reconciler({
      db: tdb.database.db,
      clock,
      provider: p.provider,
      bookings: p.bookings,
      stateMachine: p.stateMachine,
      log: app.log,
      config: {
        reconcileAfterMs: 20_000,
        maxPendingMinutes: 30,
        intervalMs: INTERVAL_MS,
        ...settings,
      },
    });
    let settled = 0;
    let sweeps = 0;
    let busyMs = 0;
    let wallMs = 0;
    while (settled < BACKLOG) {
      const t = performance.now();
      const { checked } = await reconciler.sweep();
      const took = performance.now() - t;
      if (checked === 0) break;
      settled += checked;
      sweeps += 1;
      busyMs += took;
      // Deployed, one sweep starts every interval; a longer sweep delays the next one.
      wallMs += Math.max(took, INTERVAL_MS);
      // Each pass marks what it checked; move on so the next claim sees the rest as due.
      clock.advance(1);
    }
    const last = sweeps > 0 ? busyMs / sweeps : 0;
    const deployed =
      sweeps > 1 ? settled / ((wallMs - INTERVAL_MS + last) / 1000) : settled / (busyMs / 1000);
    console.log(
      `${engine.padEnd(8)} ${label.padEnd(6)} ${settled} settled in ${sweeps} sweep(s): ` +
        `${(settled / (busyMs / 1000)).toFixed(0)} payments/s while sweeping, ` +
        `${deployed.toFixed(0)} payments/s with one sweep every ${INTERVAL_MS / 1000} s`,
    );
  } finally {
    await app.close();
    await tdb.cleanup();
  }
}

for (const engine of ['pglite', 'postgres'] as const) {
  await measure(engine, BEFORE, 'before');
  await measure(engine, {}, 'after');
}
