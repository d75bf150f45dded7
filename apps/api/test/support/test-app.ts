import type { FastifyInstance } from 'fastify';
import type { BuildAppOptions } from '../../src/app.js';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { FixedClock } from '../../src/core/clock.js';
import type { Database } from '../../src/db/database.js';
import type { PaymentProvider } from '../../src/providers/provider.js';
import { redisTestEnv } from './redis-test.js';

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent-test-data',
    WEB_DIST_DIR: '/nonexistent-web-dist',
    PUBLIC_ORIGIN: 'http://qless.test',
    ...redisTestEnv(),
    ...env,
  });
}

/** Wednesday 4 March 2026, 09:30 in Douala (08:30 UTC). */
export const PINNED_NOW = '2026-03-04T08:30:00Z';

export async function createTestApp(
  database: Database,
  options: {
    clock?: FixedClock;
    env?: Record<string, string>;
    provider?: PaymentProvider;
    logStream?: { write(line: string): void };
    onRoute?: BuildAppOptions['onRoute'];
  } = {},
): Promise<{ app: FastifyInstance; clock: FixedClock }> {
  const clock = options.clock ?? new FixedClock(PINNED_NOW);
  const app = await buildApp({
    // Background sweeps on a pinned clock would change rows under a test after a minute; the
    // files that test them switch them on.
    config: testConfig({
      RECONCILER_ENABLED: 'false',
      QUEUE_SWEEP_ENABLED: 'false',
      ...options.env,
    }),
    database,
    clock,
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
  });
  await app.ready();
  return { app, clock };
}
