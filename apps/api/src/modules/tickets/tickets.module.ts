import type { ApiModule, AppDeps } from '../../app-deps.js';
import { TicketSigner } from './ticket-signer.js';
import { ticketsRoutes } from './tickets.routes.js';

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
export { findTicketByBooking, isTicketValid, toTicket } from './tickets.service.js';

export interface TicketsModule extends ApiModule {
  /** Signs tickets (Ed25519) and verifies them, also offline at the desk. */
  signer: TicketSigner;
}

/** Tickets: signed when a booking is paid, verified by staff at the door. */
export async function ticketsModule(deps: AppDeps): Promise<TicketsModule> {
  const signer = await TicketSigner.load(deps.db, deps.config.payments.ticketSigningKey);
  return { signer, routes: [ticketsRoutes(deps, signer)] };
}
