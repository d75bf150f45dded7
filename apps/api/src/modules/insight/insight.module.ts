/** The insight module's public face: what the rest of the API may use of it. */
export { insightRoutes } from './insight.routes.js';
