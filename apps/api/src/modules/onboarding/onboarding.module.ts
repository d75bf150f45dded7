/** The onboarding module's public face: what the rest of the API may use of it. */
export { accountRoutes } from './account.routes.js';
export { emailTaken, invitationChannels, inviteAccount } from './invitations.js';
export { staffRoutes } from './staff.routes.js';
