import type { WaitlistJoinRequest, WaitlistJoinResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/**
 * Puts a number on a full day's waitlist (decisions 023, 124). Always 201, with no place in
 * line, whether or not the number was on it already. No SMS is sent for joining.
 */
export function joinWaitlist(
  serviceId: string,
  body: WaitlistJoinRequest,
): Promise<WaitlistJoinResponse> {
  return apiFetch<WaitlistJoinResponse>(apiPaths.serviceWaitlist(serviceId), {
    method: 'POST',
    body,
  });
}
