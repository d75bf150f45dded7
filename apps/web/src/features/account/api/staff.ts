import type {
  InviteStaffRequest,
  StaffInvitationResponse,
  StaffListResponse,
  StaffMemberResponse,
} from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

export function listStaff(organizationId?: string, signal?: AbortSignal) {
  return apiFetch<StaffListResponse>(apiPaths.staff(organizationId), signal ? { signal } : {});
}

export function inviteStaff(body: InviteStaffRequest) {
  return apiFetch<StaffInvitationResponse>(apiPaths.staff(), { method: 'POST', body });
}

export function setStaffActive(userId: string, active: boolean) {
  return apiFetch<StaffMemberResponse>(apiPaths.staffMember(userId), {
    method: 'PATCH',
    body: { active },
  });
}

export function resendInvitation(userId: string) {
  return apiFetch<StaffInvitationResponse>(apiPaths.staffResend(userId), { method: 'POST' });
}
