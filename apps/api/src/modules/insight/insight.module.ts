import type { ApiModule, AppDeps } from '../../app-deps.js';
import { insightRoutes } from './insight.routes.js';

/** An organization's figures over days (decision 025), and their export. */
export function insightModule(deps: AppDeps): ApiModule {
  return { routes: [insightRoutes(deps)] };
}
