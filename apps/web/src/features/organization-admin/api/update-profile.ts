import type { OrganizationProfile, UpdateProfileRequest } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

export interface ProfileChange {
  organizationData: OrganizationProfile;
  /** Upcoming bookings the new hours or days no longer hold (flagged, never dropped). */
  flagged_bookings: number;
}

export function updateProfile(request: UpdateProfileRequest): Promise<ProfileChange> {
  return apiFetch<ProfileChange>(apiPaths.updateProfile(), { method: 'PATCH', body: request });
}
