/** The tickets module's public face: what the rest of the API may use of it. */
export {
  assessBooking,
  type CounterBooking,
  counterBookingQuery,
  findCounterBooking,
  resolveTicket,
  stateReason,
  type TicketInput,
  toCheckinBooking,
} from './ticket-check.js';
export { generateTicketCode } from './ticket-code.js';
export { LEGACY_TICKET_KEY_SECRET, TicketSigner } from './ticket-signer.js';
export { ticketsRoutes } from './tickets.routes.js';
export { findTicketByBooking, isTicketValid, toTicket } from './tickets.service.js';
