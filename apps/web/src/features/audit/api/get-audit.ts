import type { AuditResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** Whose log: every entry (the console) or the caller's branches' (the organization area). */
export type AuditScope = 'platform' | 'organization';

/** The screen's filters, empty for "any". */
export interface AuditFilters {
  actor: string;
  action: string;
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilters = { actor: '', action: '', from: '', to: '' };

/** GET /api/v1/platform/audit or /api/v1/organization/audit: one page, newest first. */
export function getAudit(
  scope: AuditScope,
  filters: AuditFilters,
  cursor: string | null,
  signal?: AbortSignal,
) {
  const query = {
    actor: filters.actor.trim() || undefined,
    action: filters.action || undefined,
    from: filters.from || undefined,
    to: filters.to || undefined,
    cursor: cursor ?? undefined,
    limit: '30',
  };
  const path =
    scope === 'platform' ? apiPaths.platformAudit(query) : apiPaths.organizationAudit(query);
  return apiFetch<AuditResponse>(path, signal ? { signal } : {});
}
