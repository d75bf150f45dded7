/** The auth module's public face: what the rest of the API may use of it. */
export { authRoutes } from './auth.routes.js';
