import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { clockStartingAt, FAKE_CLOCK_STEP_MS, systemClock } from './core/clock.js';
import { DataDirError } from './db/data-dir.js';
import { openDatabase } from './db/database.js';
import { ensureMigrated, MigrationError, migrateToLatest } from './db/migrate.js';
import { DatabaseUnavailableError } from './db/pg-pool.js';
import { seedDemo } from './demo/seed.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const fake = config.fakeNow ? clockStartingAt(config.fakeNow) : null;
  const clock = fake ?? systemClock;
  // A test server's clock moves on by FAKE_CLOCK_STEP_MS at each SIGUSR2 (browser tests).
  if (fake) process.on('SIGUSR2', () => fake.advance(FAKE_CLOCK_STEP_MS));
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    timeouts: config.databaseTimeouts,
    onNotice: (message) => console.warn(message),
  });
  // A deploy migrates once (`qless migrate`); a database ahead of this code is fine (decision 027).
  if (config.migrateOnStart) await migrateToLatest(database.db);
  else await ensureMigrated(database.db);
  if (config.seedDemo) await seedDemo(database.db, clock.now(), config.defaultTimeZone);

  const app = await buildApp({ config, database, clock });

  // Drain, hand back, close (lifecycle.ts, decision 028); a second signal changes nothing.
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    void app.lifecycle
      .shutdown({
        signal,
        timeoutMs: config.shutdownTimeoutMs,
        idleGraceMs: config.shutdownIdleGraceMs,
        closeDatabase: () => database.close(),
        log: app.log,
      })
      .then((code) => process.exit(code));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  if (config.fakeNow) {
    app.log.warn({ fakeNow: config.fakeNow.toISOString() }, 'test clock: QLESS_FAKE_NOW is set');
  }
  app.log.info(
    { engine: database.engine, seedDemo: config.seedDemo, origin: config.publicOrigin },
    'Qless is ready',
  );
}

// Failures whose message already says what is wrong and where: one line, no stack.
const EXPLAINED = [DatabaseUnavailableError, MigrationError, DataDirError];

main().catch((err: unknown) => {
  if (EXPLAINED.some((kind) => err instanceof kind)) {
    console.error(`Qless cannot start: ${(err as Error).message}`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
