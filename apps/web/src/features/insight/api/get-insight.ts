import type { InsightExportFormat, InsightExportKind, InsightResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** What the screen asks: the range, and the filters left empty for "all". */
export interface InsightRequest {
  from: string;
  to: string;
  serviceId: string;
  counterId: string;
  /** A branch chosen in the branch select ('' = the branches the account covers). */
  branchId: string;
}

const query = (r: InsightRequest) => ({
  from: r.from,
  to: r.to,
  service_id: r.serviceId || undefined,
  counter_id: r.counterId || undefined,
  organization_id: r.branchId || undefined,
});

/** GET /api/v1/organization/insight. */
export function getInsight(request: InsightRequest, signal?: AbortSignal) {
  return apiFetch<InsightResponse>(apiPaths.insight(query(request)), signal ? { signal } : {});
}

/**
 * The CSV file's address: a plain link downloads it with the session cookie. A French screen
 * asks for the file French Excel opens as a table (decision 122); the standard one is the
 * default.
 */
export function insightExportHref(
  kind: InsightExportKind,
  request: InsightRequest,
  format: InsightExportFormat = 'csv',
): string {
  return apiPaths.insightExport({
    kind,
    from: request.from,
    to: request.to,
    organization_id: request.branchId || undefined,
    // The rows behind the figures shown: the screen's filters too.
    service_id: request.serviceId || undefined,
    counter_id: kind === 'visits' ? request.counterId || undefined : undefined,
    format: format === 'csv' ? undefined : format,
  });
}
