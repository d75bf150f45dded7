import type { TicketLookup } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** Where and when a ticket is, to whoever holds its code (nothing personal). */
export async function lookupTicket(code: string, signal?: AbortSignal): Promise<TicketLookup> {
  const body = await apiFetch<{ ticket: TicketLookup }>(apiPaths.ticketLookup(code), { signal });
  return body.ticket;
}
