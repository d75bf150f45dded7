import type { Closure } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

export interface ClosuresChange {
  /** Every closure from today on, ascending. */
  closures: Closure[];
  /** Upcoming bookings on a closed date (flagged, never dropped). */
  flagged_bookings: number;
}

/** Adds a date the organization is closed (a holiday). */
export function addClosure(closure: Closure): Promise<ClosuresChange> {
  return apiFetch<ClosuresChange>(apiPaths.closures(), { method: 'POST', body: closure });
}
