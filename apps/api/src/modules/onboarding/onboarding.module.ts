import type { ApiModule, AppDeps } from '../../app-deps.js';
import { accountRoutes } from './account.routes.js';
import { staffRoutes } from './staff.routes.js';

export { emailTaken, invitationChannels, inviteAccount } from './invitations.js';

/** Accounts: invitations, first password, reset; an organization's staff list. */
export function onboardingModule(deps: AppDeps): ApiModule {
  return { routes: [accountRoutes(deps), staffRoutes(deps)] };
}
