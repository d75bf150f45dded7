import type { TicketAccessRequest, TicketAccessResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/**
 * Proves the right to manage a booking by its ticket code: the key of a ticket link, or the
 * last four digits of the phone number. Answers the booking and its access key.
 */
export function accessTicket(
  code: string,
  proof: TicketAccessRequest,
  signal?: AbortSignal,
): Promise<TicketAccessResponse> {
  return apiFetch<TicketAccessResponse>(apiPaths.ticketAccess(code), {
    method: 'POST',
    body: proof,
    signal,
  });
}
