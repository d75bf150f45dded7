import type { WaitlistEntry } from '@qless/contract';
import { WAITLIST_KEY_HEADER } from '@qless/contract/core';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** Takes this device's entry off the list with the key answered at join (decision 023). */
export async function withdrawWaitlist(
  serviceId: string,
  entryId: string,
  key: string,
): Promise<WaitlistEntry> {
  const answer = await apiFetch<{ entry: WaitlistEntry }>(
    apiPaths.serviceWaitlistEntry(serviceId, entryId),
    { method: 'DELETE', headers: { [WAITLIST_KEY_HEADER]: key } },
  );
  return answer.entry;
}
