import type { FastifyInstance } from 'fastify';
import { test as base } from 'vitest';
import type { BuildAppOptions } from '../../src/app.js';
import { FixedClock } from '../../src/core/clock.js';
import type { Database, Engine } from '../../src/db/database.js';
import type { PaymentProvider } from '../../src/providers/provider.js';
import { createFixture, type Fixture } from './fixtures.js';
import { createTestApp, PINNED_NOW } from './test-app.js';
import { createTestDatabase } from './test-db.js';

/** What differs between the API test files' apps. */
export interface StackOptions {
  env?: Record<string, string>;
  /** The app's "now" (PINNED_NOW unless given). */
  now?: string;
  /**
   * The payment provider, made once the clock exists (e.g. the Campay adapter talking to a
   * local fake that signs with the same clock); the simulator when absent.
   */
  provider?: (clock: FixedClock) => Promise<{ provider: PaymentProvider; close(): Promise<void> }>;
  logStream?: { write(line: string): void };
  onRoute?: BuildAppOptions['onRoute'];
  /** false: no fixture organization (the file makes its own data). */
  fixture?: boolean;
}

/** One app on a fresh database, the pinned clock, and the fixture organization. */
export interface Stack {
  engine: Engine;
  database: Database;
  /** The PostgreSQL database's URL (null on PGlite), for a second process's connections. */
  url: string | null;
  app: FastifyInstance;
  clock: FixedClock;
  /** The fixture organization (throws when the options said `fixture: false`). */
  fx: Fixture;
}

async function openStack(
  engine: Engine,
  options: StackOptions,
): Promise<Stack & { close(): Promise<void> }> {
  const tdb = await createTestDatabase(engine);
  const clock = new FixedClock(options.now ?? PINNED_NOW);
  const made = options.provider ? await options.provider(clock) : null;
  const { app } = await createTestApp(tdb.database, {
    clock,
    ...(options.env ? { env: options.env } : {}),
    ...(made ? { provider: made.provider } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
  });
  const fx = options.fixture === false ? null : await createFixture(tdb.database, clock.now());
  return {
    engine,
    database: tdb.database,
    url: tdb.url,
    app,
    clock,
    get fx(): Fixture {
      if (!fx) throw new Error('This stack was made without the fixture organization');
      return fx;
    },
    async close() {
      await app.close();
      await made?.close();
      await tdb.cleanup();
    },
  };
}

/** Opens stacks on this file's engine; closes any still open after the file's last test. */
export interface StackOpener {
  engine: Engine;
  open(options: StackOptions): Promise<Stack & { close(): Promise<void> }>;
}

/**
 * The one fixture of the API tests. `engine` is this file's run's engine, provided by its
 * Vitest project (`api` or `api-pglite`, decision 016); `stacks` opens apps on it, each on a
 * fresh copy of the run's migrated template database.
 */
export const test = base
  .extend('engine', { scope: 'file', injected: true }, 'postgres' as Engine)
  .extend('stacks', { scope: 'file' }, async ({ engine }, { onCleanup }): Promise<StackOpener> => {
    const open = new Set<{ close(): Promise<void> }>();
    onCleanup(async () => {
      await Promise.all([...open].map((stack) => stack.close()));
    });
    return {
      engine,
      async open(options) {
        const stack = await openStack(engine, options);
        const close = stack.close;
        stack.close = async () => {
          if (open.delete(stack)) await close();
        };
        open.add(stack);
        return stack;
      },
    };
  });

/**
 * A stack for the describe block that calls this: opened in its beforeAll, closed in its
 * afterAll. The returned object reads the block's stack once the block has started. Pass
 * the options as a function when earlier hooks of the block compute them.
 *
 *     describe('sign-in', () => {
 *       const s = useStack({ env: { SESSION_IDLE_MINUTES: '30' } });
 *       it('signs in', async () => { await s.app.inject(...) });
 *     });
 */
export function useStack(options: StackOptions | (() => StackOptions) = {}): Stack {
  let current: (Stack & { close(): Promise<void> }) | null = null;
  test.beforeAll(async ({ stacks }) => {
    // A function is read when the block starts: hooks before this one may fill its values
    // (an SMTP server's address, say).
    current = await stacks.open(typeof options === 'function' ? options() : options);
  });
  test.afterAll(async () => {
    await current?.close();
  });
  const get = (): Stack => {
    if (!current) throw new Error('The stack exists only once its describe block started');
    return current;
  };
  return {
    get engine() {
      return get().engine;
    },
    get database() {
      return get().database;
    },
    get url() {
      return get().url;
    },
    get app() {
      return get().app;
    },
    get clock() {
      return get().clock;
    },
    get fx() {
      return get().fx;
    },
  };
}
