/** The organizations module's public face: what the rest of the API may use of it. */
export { branchesRoutes } from './branches.routes.js';
export { organizationAdminRoutes } from './organization-admin.routes.js';
