import type { ContactRequest } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

export function sendContact(request: ContactRequest): Promise<{ ok: true; id: string }> {
  return apiFetch(apiPaths.contact(), { method: 'POST', body: request });
}
