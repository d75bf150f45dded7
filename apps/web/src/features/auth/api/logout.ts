import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { clearUserData } from '../../../lib/user-data';

/**
 * Ends the session on the server (it revokes it and clears the cookie), and removes what
 * the account kept on this device (the check-in desk's list of the day, with customers' names).
 */
export async function logout(): Promise<void> {
  try {
    await apiFetch(apiPaths.logout(), { method: 'POST' });
  } finally {
    clearUserData();
  }
}
