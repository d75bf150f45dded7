import type { FastifyInstance } from 'fastify';
import type { ApiModule, AppDeps } from '../../app-deps.js';
import type { Fanout } from '../../fanout.js';
import { registerReadYourWrites } from '../../read-your-writes.js';
import { catalogRoutes } from './catalog.routes.js';
import { catalogReads } from './catalog-reads.js';
import { ReadCache } from './read-cache.js';

export { type CatalogReads, catalogReads } from './catalog-reads.js';
export { READ_CACHE_CHANNEL, ReadCache } from './read-cache.js';

/**
 * The public catalogue (organizations, services, slots): its answers kept in memory and
 * dropped by topic when a write commits anywhere (the fan-out); a writer's own next read
 * waits for its write to be heard.
 */
export async function catalogModule(
  app: FastifyInstance,
  deps: AppDeps,
  fanout: Fanout,
): Promise<ApiModule> {
  const { clock, config, database, metrics } = deps;
  const readCache = new ReadCache({
    clock,
    ...config.readCache,
    maxAgeMs: 10 * 60_000,
    onWarning: (message) => app.log.warn(message),
    onRead: (hit) => metrics.cacheRead(hit),
  });
  await readCache.start(database, fanout);
  app.addHook('onClose', async () => readCache.stop());
  const reads = catalogReads(deps, readCache);
  app.decorate('readCache', readCache);
  app.decorate('catalogReads', reads);
  registerReadYourWrites(app, readCache);
  return { routes: [catalogRoutes(reads)] };
}
