import type { ApiModule, AppDeps } from '../../app-deps.js';
import type { TurnMessages } from '../queue/queue.module.js';
import type { TicketSigner } from '../tickets/tickets.module.js';
import { checkinRoutes } from './checkin.routes.js';

/** The desk: a ticket scanned or typed checks its booking in and puts the visitor in line. */
export function checkinModule(deps: AppDeps, signer: TicketSigner, turns: TurnMessages): ApiModule {
  return { routes: [checkinRoutes(deps, signer, turns)] };
}
