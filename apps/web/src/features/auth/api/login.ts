import { apiFetch } from '../../../lib/api-client';

/** The sign-in itself arrives with the admin issue; until then any non-OK shows the toast. */
export function login(email: string, password: string): Promise<unknown> {
  return apiFetch('/api/v1/auth/login', { method: 'POST', body: { email, password } });
}
