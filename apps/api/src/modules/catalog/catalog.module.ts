/** The catalog module's public face: what the rest of the API may use of it. */

export { catalogRoutes } from './catalog.routes.js';
export { type CatalogReads, catalogReads } from './catalog-reads.js';
export { READ_CACHE_CHANNEL, ReadCache } from './read-cache.js';
