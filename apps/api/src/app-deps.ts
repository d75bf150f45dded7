import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type {} from './app-decorations.js';
import type { Config } from './config.js';
import type { AuthGuard } from './core/access/auth-guard.js';
import type { Clock } from './core/clock.js';
import type { Database } from './db/database.js';
import type { DB } from './db/schema.js';
import type { Metrics } from './modules/metrics/metrics.module.js';

/** What every module may use; built once in buildApp and passed down explicitly. */
export interface AppDeps {
  config: Config;
  database: Database;
  db: Kysely<DB>;
  clock: Clock;
  /** Route guards: `onRequest: guard.require(ROLES_ADMIN)`. */
  guard: AuthGuard;
  /** Prometheus series of this app (decision 029): hot paths only increment. */
  metrics: Metrics;
}

/**
 * What every module's face (`modules/<name>/<name>.module.ts`) gives the app: its routes,
 * registered under /api/v1 in the order given, and the services other modules are handed.
 */
export interface ApiModule {
  routes: FastifyPluginAsyncZod[];
}

/** Work a module runs beside the requests (a sweep, a worker). */
export interface BackgroundWork {
  start(): unknown;
  /** Stops it and waits for what it was doing. */
  stop(): Promise<unknown>;
  /** What a drain stops, when not all of it (default: `stop`). */
  drain?(): Promise<unknown>;
}

/**
 * Runs `work` beside the requests: started when the app is ready, stopped at close, and
 * stopped first by a drain (decision 028), under `name` in the drain's list. Null: switched off.
 * At close Fastify runs the app's onClose hooks last registered first: work registered after
 * what it uses (a provider, a cache) stops before it.
 */
export function runBeside(app: FastifyInstance, name: string, work: BackgroundWork | null): void {
  // Listed in the drain's log even when switched off, as each always was.
  app.lifecycle.addBackground(name, async () => (work?.drain ? work.drain() : work?.stop()));
  if (!work) return;
  app.addHook('onReady', async () => {
    work.start();
  });
  app.addHook('onClose', async () => {
    await work.stop();
  });
}
