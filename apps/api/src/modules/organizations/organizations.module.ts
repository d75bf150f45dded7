import type { ApiModule, AppDeps } from '../../app-deps.js';
import { branchesRoutes } from './branches.routes.js';
import { organizationAdminRoutes } from './organization-admin.routes.js';

/** An organization's own area: its settings, hours, services and branches (decision 024). */
export function organizationsModule(deps: AppDeps): ApiModule {
  return { routes: [organizationAdminRoutes(deps), branchesRoutes(deps)] };
}
