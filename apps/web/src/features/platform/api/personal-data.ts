import type { PersonalDataEraseResponse, PersonalDataExport } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** Whom to look for: a phone number (any form) or an e-mail address. */
export type PersonalDataSubject = { phone: string } | { email: string };

/** Everything held about one person (GET /platform/personal-data, decision 031). */
export function exportPersonalData(subject: PersonalDataSubject, signal?: AbortSignal) {
  return apiFetch<PersonalDataExport>(
    apiPaths.platformPersonalData(subject),
    signal ? { signal } : {},
  );
}

/** Erases it all; answers the rows erased per kind. */
export function erasePersonalData(subject: PersonalDataSubject) {
  return apiFetch<PersonalDataEraseResponse>(apiPaths.platformPersonalDataErase(), {
    method: 'POST',
    body: { ...subject, confirm: true },
  });
}
