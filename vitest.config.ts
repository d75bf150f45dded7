import { defineConfig } from 'vitest/config';
import LongestFirst from './vitest.sequencer';

/**
 * API test files that the two engines can answer differently (decision 016): migrations and
 * start-up, locking and races, LISTEN/NOTIFY, rate counters (in memory on PGlite, upserts on
 * PostgreSQL), PGlite's single session, the read cache and database faults. They run on
 * PGlite as well as PostgreSQL; every other API file runs on PostgreSQL only, unless
 * QLESS_TEST_ENGINES=both (CI's switch) runs every file on both.
 */
export const BOTH_ENGINES = [
  'audit-log', // the append-only trigger and its prune setting (SET LOCAL)
  'auth', // login limits are rate counters
  'backup-restore', // pg_dump/pg_restore, or the PGlite data folder dumped and loaded
  'booking-without-email', // e-mail optional: the column's '' on both engines (decision 121)
  'checkin-sync', // offline scans replayed in order, under the row locks
  'client-address-limits',
  'database-faults',
  'graceful-shutdown', // hand-backs of claims (SKIP LOCKED rows); two processes on PostgreSQL only
  'mail-outbox', // claims with SKIP LOCKED
  'many-rows', // a large read as one JSON value on PGlite, plain rows on PostgreSQL (decision 129)
  'metrics', // the pool's figures (PGlite: its one session), the scrape's SQL
  'migrate-command', // the two migration ledgers
  'payment-duplicate-callbacks', // concurrent callbacks on one payment
  'payment-races',
  'payment-rate-limits',
  'payment-status-socket', // LISTEN/NOTIFY fan-out
  'payments-processes',
  'personal-data', // the retention sweep's SQL (time zones, CTE updates) on both engines
  'queue-board', // the queue hub's LISTEN fan-out (in process on PGlite)
  'queue-board-calls', // two calls in one second, ordered by their events' ids
  'queue-join-code', // the hall's code: tries counted per address in rate counters (decision 125)
  'queue-join-flood', // the join page's ceilings under the queue lock (decision 125)
  'queue-race', // twenty counters calling at once (the queue lock)
  'queue-turn',
  'queue-undo-effects', // an Undo withdraws pending SMS (LIKE on the outbox) under the queue lock
  'queue-turn-held', // no estimate with no counter open; leaving the line (under the queue lock)
  'read-cache',
  'reconciler-backlog',
  'self-service-races',
  'server-startup-failures', // migrations and the data folder
  'ticket-code-retry', // a unique violation retried inside one transaction
  'ticket-lookup-limits',
  'waitlist', // offers under the day's lock; twenty racing one freed seat
];

/** unset: the rule above; `both`: every API file on both engines; `postgres`: no PGlite run. */
const engines = process.env.QLESS_TEST_ENGINES ?? '';
if (!['', 'both', 'postgres'].includes(engines)) {
  throw new Error(`QLESS_TEST_ENGINES is '', 'both' or 'postgres', not ${engines}`);
}
const pgliteFiles =
  engines === 'both'
    ? ['apps/api/test/**/*.test.ts']
    : engines === 'postgres'
      ? []
      : BOTH_ENGINES.map((file) => `apps/api/test/${file}.test.ts`);

/**
 * Files that replace a module (`vi.mock`) need a module graph of their own. Every other API
 * file shares its worker's: without isolation a worker imports the app once, not once per
 * file, which halved the API project's CPU time and its wall time (110 s → 68 s, decision 114).
 */
const MODULE_MOCKS = ['self-service-messages', 'ticket-code-retry'].map(
  (file) => `apps/api/test/${file}.test.ts`,
);

/** A setup file for every project, for tools that watch a run (bench/test-cpu.ts). */
const setupFiles = process.env.QLESS_TEST_SETUP ? [process.env.QLESS_TEST_SETUP] : [];

const apiProject = (name: string, engine: 'postgres' | 'pglite', files: string[]) => {
  const project = (suffix: string, include: string[], exclude: string[], isolate: boolean) => ({
    test: {
      name: `${name}${suffix}`,
      include,
      exclude,
      isolate,
      provide: { engine },
      setupFiles,
      globalSetup: ['apps/api/test/support/global-setup.ts'],
      testTimeout: 60_000,
      hookTimeout: 60_000,
      // expect.poll's default of 1 s is less than a loaded CI machine takes to settle.
      expect: { poll: { timeout: 10_000 } },
    },
  });
  const mocked = files.some((f) => f.includes('*'))
    ? MODULE_MOCKS
    : MODULE_MOCKS.filter((f) => files.includes(f));
  return [
    project('', files, MODULE_MOCKS, false),
    ...(mocked.length > 0 ? [project('-mocks', mocked, [], true)] : []),
  ];
};

/**
 * Beyond one database (decision 033): the fewest files that exercise every Redis path run
 * again with REDIS_URL (each file's apps under a key prefix of their own, see test/support/
 * redis-test.ts): the limiter's counters (ticket-lookup-limits), payment status and the
 * route store of payment starts (payment-status-socket), queue changes across two apps
 * (queue-live-processes) and read-cache invalidation with its sync tokens (read-cache), all
 * through the relay. The outage file (redis-adapter, in `api`) holds a route limit across
 * two apps in Redis, then in the database while Redis is away.
 */
const REDIS_FILES = [
  'ticket-lookup-limits',
  'payment-status-socket',
  'queue-live-processes',
  'read-cache',
].map((file) => `apps/api/test/${file}.test.ts`);

function redisProject() {
  const [project] = apiProject('api-redis', 'postgres', REDIS_FILES);
  if (!project) throw new Error('api-redis: no project');
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  return {
    test: {
      ...project.test,
      provide: { ...project.test.provide, redisUrl },
      globalSetup: [...project.test.globalSetup, 'apps/api/test/support/redis-global-setup.ts'],
    },
  };
}

/**
 * Vitest's default is one worker per core less one: a single worker on this 2-core machine, so
 * the files ran one after another although most of their time is spent waiting (on
 * PostgreSQL, Chromium, the server process, argon2's thread pool). Four workers shared by
 * every file (browser files too) was the fastest of the layouts measured (decision 016);
 * QLESS_TEST_WORKERS overrides it.
 */
const workers = Number(process.env.QLESS_TEST_WORKERS ?? 0) || 4;

export default defineConfig({
  test: {
    maxWorkers: workers,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          setupFiles,
          // No module mocks here: the files share each worker's module graph (4 s, not 13 s).
          isolate: false,
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/api/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'apps/web/build/**/*.test.ts',
            'bench/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
        },
      },
      ...apiProject('api', 'postgres', ['apps/api/test/**/*.test.ts']),
      ...apiProject('api-pglite', 'pglite', pgliteFiles),
      redisProject(),
      {
        test: {
          name: 'e2e',
          setupFiles,
          include: ['e2e/**/*.test.ts'],
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          expect: { poll: { timeout: 15_000 } },
          // Each file starts its own server on its own data, so they run side by side, with
          // the unit and API files, on one web build made by the global setup.
          globalSetup: ['e2e/support/global-setup.ts'],
        },
      },
    ],
  },
});
