import type { ApiModule, AppDeps } from '../../app-deps.js';
import { authRoutes } from './auth.routes.js';

/** Sign-in, sign-out, the session's account (sessions themselves live in core/access). */
export function authModule(deps: AppDeps): ApiModule {
  return { routes: [authRoutes(deps)] };
}
