import type { ApiModule, AppDeps } from '../../app-deps.js';
import { limiter } from '../../limits/limiter.js';
import { selfServiceRoutes } from './self-service.routes.js';
import { SelfService, type SelfServiceDeps } from './self-service.service.js';

export { refreshAttention } from './booking-attention.js';
export {
  assertKeyHolder,
  assertOrganizationMay,
  assertOrganizationReaches,
  ORGANIZATION_ALLOWED_FROM,
  type OrganizationAction,
  organizationActionRefused,
  startsAt,
} from './booking-policy.js';
export {
  changeBookingStatus,
  earliestLiveHoldExpiry,
  listSeatsTaken,
  listTakenSlots,
  lockBookingForUpdate,
  markCheckedIn,
  moveCheckInEarlier,
} from './bookings.repository.js';
export { BookingsService, type InitiationView, slotTaken } from './bookings.service.js';

/**
 * Bookings: held, paid and confirmed through payments (which build the BookingsService); here
 * the customer's own acts on a booking by its key (self-service: move, cancel, look up).
 */
export function bookingsModule(
  deps: AppDeps,
  wiring: Pick<SelfServiceDeps, 'bookings' | 'access' | 'signer' | 'waitlist'>,
): ApiModule {
  const { db, clock, config } = deps;
  const selfService = new SelfService({
    db,
    clock,
    limits: limiter(db, clock, config),
    whatsappEnabled: config.whatsapp !== null,
    ...wiring,
  });
  return { routes: [selfServiceRoutes(deps, selfService)] };
}
