import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import type { Lifecycle } from '../../lifecycle.js';
import { registerMetricsListener, registerMetricsRoute } from './metrics.routes.js';
import { ScrapeSnapshot } from './scrape-snapshot.js';

export { Metrics, SKIP_LABELS } from './metrics.js';

/**
 * Metrics (decision 029): the app's series, read at scrape time, served on METRICS_PORT and/or
 * with a token; the database's figures read by a snapshot at the scrape.
 */
export function metricsModule(app: FastifyInstance, deps: AppDeps, lifecycle: Lifecycle): void {
  const { db, clock, config, database, metrics } = deps;
  metrics.attach({
    snapshot: new ScrapeSnapshot({
      db,
      clock,
      reconcileAfterMs: config.payments.reconcileAfterMs,
      onError: (err) => app.log.warn({ err }, 'metrics: the database did not answer the scrape'),
    }),
    ...(database.poolStats ? { poolStats: database.poolStats } : {}),
    draining: () => lifecycle.draining,
  });
  const unobservePool = database.observePool?.(metrics);
  app.addHook('onClose', async () => unobservePool?.());
  app.decorate('metrics', metrics);
  app.decorate('metricsAddress', null);
  registerMetricsRoute(app, config.metrics, metrics);
  registerMetricsListener(app, config.metrics, metrics);
}
