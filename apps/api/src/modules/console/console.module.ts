import type { ApiModule, AppDeps } from '../../app-deps.js';
import { consoleRoutes } from './console.routes.js';

/** The platform team's console: organizations onboarded, their admins, the outbox read. */
export function consoleModule(deps: AppDeps): ApiModule {
  return { routes: [consoleRoutes(deps)] };
}
