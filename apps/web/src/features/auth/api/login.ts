import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** The sign-in itself arrives with the admin issue; until then any non-OK shows the toast. */
export function login(email: string, password: string): Promise<unknown> {
  return apiFetch(apiPaths.login(), { method: 'POST', body: { email, password } });
}
