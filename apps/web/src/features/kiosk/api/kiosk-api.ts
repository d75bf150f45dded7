import type { KioskInfo, KioskIssueRequest, VisitSlip } from '@qless/contract';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

export function getKiosk(token: string, signal?: AbortSignal) {
  return apiFetch<KioskInfo>(apiPaths.kiosk(token), signal ? { signal } : {});
}

export function issueNumber(token: string, body: KioskIssueRequest) {
  return apiFetch<{ slip: VisitSlip }>(apiPaths.kioskVisits(token), { method: 'POST', body });
}

/** No answer, or a gateway's (the server restarting): the same press is sent again. */
export function isNetworkBlink(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 502);
}
