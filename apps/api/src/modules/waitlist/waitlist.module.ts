/** The waitlist module's public face: what the rest of the API may use of it. */

export { lockDay } from './waitlist.repository.js';
export { waitlistLinkRoutes, waitlistRoutes } from './waitlist.routes.js';
export { WaitlistService } from './waitlist.service.js';
export { WaitlistOffers, WaitlistSweep } from './waitlist-offers.js';
