import type { ApiModule, AppDeps } from '../../app-deps.js';
import type { Lifecycle } from '../../lifecycle.js';
import { healthRoutes } from './health.routes.js';

/** Liveness and readiness (a draining process says so, decision 028). */
export function healthModule(deps: AppDeps, lifecycle: Lifecycle): ApiModule {
  return { routes: [healthRoutes(deps, lifecycle)] };
}
