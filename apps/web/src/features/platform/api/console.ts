import type {
  ApproveContactRequest,
  ApproveContactResponse,
  ConsoleSmsResponse,
  ContactRequestItem,
  ContactRequestStatus,
  ContactRequestsResponse,
  OutboxResponse,
  PlatformOrganization,
  PlatformOrganizationsResponse,
  ReviewPaymentsResponse,
} from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

const opts = (signal?: AbortSignal) => (signal ? { signal } : {});

export function listContactRequests(
  query: { status?: ContactRequestStatus; page: number; page_size: number },
  signal?: AbortSignal,
) {
  return apiFetch<ContactRequestsResponse>(apiPaths.platformContactRequests(query), opts(signal));
}

export function approveContactRequest(id: string, body: ApproveContactRequest) {
  return apiFetch<ApproveContactResponse>(apiPaths.platformApprove(id), { method: 'POST', body });
}

export function rejectContactRequest(id: string) {
  return apiFetch<{ contact_request: ContactRequestItem }>(apiPaths.platformReject(id), {
    method: 'POST',
  });
}

export function listOrganizations(signal?: AbortSignal) {
  return apiFetch<PlatformOrganizationsResponse>(apiPaths.platformOrganizations(), opts(signal));
}

export function setOrganizationVerified(id: string, verified: boolean) {
  return apiFetch<{ organization: PlatformOrganization }>(apiPaths.platformVerify(id, verified), {
    method: 'POST',
  });
}

export function listOutbox(page: number, pageSize: number, signal?: AbortSignal) {
  return apiFetch<OutboxResponse>(apiPaths.platformOutbox(page, pageSize), opts(signal));
}

export function listPaymentsToReview(page: number, pageSize: number, signal?: AbortSignal) {
  return apiFetch<ReviewPaymentsResponse>(
    apiPaths.platformPaymentsReview(page, pageSize),
    opts(signal),
  );
}

/** The address the SMS gateway posts received texts to (decision 136). */
export function inboundSmsUrl(signal?: AbortSignal) {
  return apiFetch<{ url: string }>(apiPaths.platformSmsInbound(), opts(signal));
}

/** A text "received" by hand (the simulator's inbound side): what came of it, the answer. */
export function receiveSms(from: string, text: string) {
  return apiFetch<ConsoleSmsResponse>(apiPaths.platformSmsInbound(), {
    method: 'POST',
    body: { from, text },
  });
}
