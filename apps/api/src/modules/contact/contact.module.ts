import type { ApiModule, AppDeps } from '../../app-deps.js';
import { contactRoutes } from './contact.routes.js';

/** The public contact form. */
export function contactModule(deps: AppDeps): ApiModule {
  return { routes: [contactRoutes(deps)] };
}
