/** The metrics module's public face: what the rest of the API may use of it. */

export { Metrics } from './metrics.js';
export { registerMetricsListener, registerMetricsRoute } from './metrics.routes.js';
export { ScrapeSnapshot } from './scrape-snapshot.js';
