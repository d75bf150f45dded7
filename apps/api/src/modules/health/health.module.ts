/** The health module's public face: what the rest of the API may use of it. */
export { healthRoutes } from './health.routes.js';
