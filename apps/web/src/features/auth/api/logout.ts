import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** Ends the session on the server (it revokes it and clears the cookie). */
export async function logout(): Promise<void> {
  await apiFetch(apiPaths.logout(), { method: 'POST' });
}
