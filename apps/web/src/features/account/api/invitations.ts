import type { AcceptInvitationRequest, InvitationInfo, LoginResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

export function getInvitation(token: string, signal?: AbortSignal): Promise<InvitationInfo> {
  return apiFetch<InvitationInfo>(apiPaths.invitation(token), signal ? { signal } : {});
}

/** Sets the password and signs in (the answer sets the session cookie). */
export function acceptInvitation(body: AcceptInvitationRequest): Promise<LoginResponse> {
  return apiFetch<LoginResponse>(apiPaths.invitationAccept(), { method: 'POST', body });
}
