/** The bookings module's public face: what the rest of the API may use of it. */
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
export { selfServiceRoutes } from './self-service.routes.js';
export { SelfService } from './self-service.service.js';
