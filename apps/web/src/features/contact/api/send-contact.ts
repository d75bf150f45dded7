import type { ContactRequest } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';

export function sendContact(request: ContactRequest): Promise<{ ok: true; id: string }> {
  return apiFetch('/api/v1/contact', { method: 'POST', body: request });
}
