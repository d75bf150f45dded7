/** The console module's public face: what the rest of the API may use of it. */
export { consoleRoutes } from './console.routes.js';
