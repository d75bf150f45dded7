import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirst from './vitest.sequencer';

/**
 * What an API test file needs, said in the file itself (decision 132), read here from each file
 * under apps/api/test/<module>/:
 *
 * - `// engines: postgres and pglite — <why>`, a line at the top: answers the two engines can
 *   give differently (migrations and start-up, locking and races, LISTEN/NOTIFY, rate counters
 *   in memory on PGlite and upserts on PostgreSQL, PGlite's single session, the read cache,
 *   database faults; decision 016). Such a file runs on PGlite as well as PostgreSQL; every
 *   other API file on PostgreSQL only, unless QLESS_TEST_ENGINES=both (every file on both).
 * - `// also with redis — <why>`: the file runs once more with REDIS_URL (decision 033).
 * - `vi.mock(`: the file replaces a module and needs a module graph of its own (isolation).
 */
const API_TESTS = 'apps/api/test';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

function apiTestFiles(dir = API_TESTS): string[] {
  return readdirSync(`${ROOT}/${dir}`, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'support' ? [] : apiTestFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const apiFiles = apiTestFiles().map((file) => ({
  file,
  text: readFileSync(`${ROOT}/${file}`, 'utf8'),
}));
const declared = (pattern: RegExp) =>
  apiFiles.filter(({ text }) => pattern.test(text)).map(({ file }) => file);
/** The files that run on both engines (exported for tools). */
export const BOTH_ENGINES = declared(/^\/\/ engines: postgres and pglite\b/m);

/** unset: the rule above; `both`: every API file on both engines; `postgres`: no PGlite run. */
const engines = process.env.QLESS_TEST_ENGINES ?? '';
if (!['', 'both', 'postgres'].includes(engines)) {
  throw new Error(`QLESS_TEST_ENGINES is '', 'both' or 'postgres', not ${engines}`);
}
const pgliteFiles =
  engines === 'both' ? ['apps/api/test/**/*.test.ts'] : engines === 'postgres' ? [] : BOTH_ENGINES;

/**
 * Files that replace a module (`vi.mock`) need a module graph of their own. Every other API
 * file shares its worker's: without isolation a worker imports the app once, not once per
 * file, which halved the API project's CPU time and its wall time (110 s → 68 s, decision 114).
 */
const MODULE_MOCKS = declared(/\bvi\.mock\(/);

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
      sequence: { groupOrder: 1 },
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
const REDIS_FILES = declared(/^\/\/ also with redis\b/m);

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
 * PostgreSQL, Chromium, the server process, argon2's thread pool). Four were the fastest count
 * in decision 016; on a machine where switching and page faults are dear, three took 752 and
 * 745 s where four took 794–849 s (decision 146). The browser files wait the most (a server, a
 * page, a settle): they run first, in a group of their own, on four workers, and the rest then
 * on three (decision 148: 309 s against 322–324 s on a faster machine).
 * QLESS_TEST_WORKERS and QLESS_E2E_WORKERS override them.
 */
const workers = Number(process.env.QLESS_TEST_WORKERS ?? 0) || 3;
const e2eWorkers = Number(process.env.QLESS_E2E_WORKERS ?? 0) || 4;

export default defineConfig({
  test: {
    maxWorkers: workers,
    // Each project has a Vite server of its own, so the app's modules were transformed once
    // per API project; cached on disk (node_modules/.experimental-vitest-cache, keyed by the
    // file's content and the config), the second project reads the first's (decision 148).
    experimental: { fsModuleCache: true },
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          setupFiles,
          sequence: { groupOrder: 1 },
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
          // A group of their own, before the others: a group's projects share one worker count.
          maxWorkers: e2eWorkers,
          sequence: { groupOrder: 0 },
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
