import type { AdminBookingsResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

export interface BookingFilters {
  page: number;
  /** yyyy-MM-dd, inclusive; '' for no bound. */
  from: string;
  to: string;
  /** One status, or '' for the server's default (every booking that was confirmed). */
  status: string;
  /** Only the bookings flagged for the admin. */
  attention: boolean;
}

export const PAGE_SIZE = 20;

export function getBookings(
  orgId: string,
  filters: BookingFilters,
  signal?: AbortSignal,
): Promise<AdminBookingsResponse> {
  const path = apiPaths.organizationBookings(orgId, {
    page: filters.page,
    page_size: PAGE_SIZE,
    from: filters.from || undefined,
    to: filters.to || undefined,
    status: filters.status || undefined,
    attention: filters.attention ? 'true' : undefined,
  });
  return apiFetch<AdminBookingsResponse>(path, signal ? { signal } : {});
}
