/** The contact module's public face: what the rest of the API may use of it. */
export { contactRoutes } from './contact.routes.js';
