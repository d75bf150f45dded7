import type { TicketLookup } from '@qless/contract';
import { apiQuery, fetchQuery } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { embedded } from '../../../lib/embedded-data';
import { type AsyncState, useAsync } from '../../../lib/use-async';

type LookupResponse = { ticket: TicketLookup };

/** The public look-up, as the server asks it for the page's first render (decision 112). */
export const ticketLookupQuery = (code: string) =>
  apiQuery<LookupResponse>(apiPaths.ticketLookup(code));

/** Where and when a ticket is, to whoever holds its code (nothing personal). */
export async function lookupTicket(code: string, signal?: AbortSignal): Promise<TicketLookup> {
  const body = await fetchQuery(ticketLookupQuery(code), signal);
  return body.ticket;
}

/**
 * The look-up of `code` (none for an empty code), from the server's embedded answer on the
 * first render; change `reloadKey` to ask again.
 */
export function useTicketLookup(code: string, reloadKey: number): AsyncState<TicketLookup> {
  return useAsync(
    (signal) => lookupTicket(code, signal),
    [code, reloadKey],
    !code,
    code ? embedded(ticketLookupQuery(code), (body) => body.ticket) : undefined,
  );
}
