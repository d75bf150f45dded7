import type { PrivacyInfo } from '@qless/contract';
import { apiQuery, fetchQuery } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** The periods the privacy page states, as the server is configured (decision 031). */
export const privacyQuery = () => apiQuery<PrivacyInfo>(apiPaths.privacy());

export function getPrivacy(signal?: AbortSignal): Promise<PrivacyInfo> {
  return fetchQuery(privacyQuery(), signal);
}
