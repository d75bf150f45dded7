import type { PersonalDataEraseResponse, PersonalDataExport } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** Whom to look for: a phone number (any form) or an e-mail address. */
export type PersonalDataSubject = { phone: string } | { email: string };

/**
 * Everything held about one person (decision 031): POSTed, so the number or address is in
 * no URL (the proxy's access log, the browser's history).
 */
export function exportPersonalData(subject: PersonalDataSubject) {
  return apiFetch<PersonalDataExport>(apiPaths.platformPersonalDataExport(), {
    method: 'POST',
    body: subject,
  });
}

/** Erases it all; answers the rows erased per kind. */
export function erasePersonalData(subject: PersonalDataSubject) {
  return apiFetch<PersonalDataEraseResponse>(apiPaths.platformPersonalDataErase(), {
    method: 'POST',
    body: { ...subject, confirm: true },
  });
}
