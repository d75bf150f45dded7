import type { Kysely } from 'kysely';
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
