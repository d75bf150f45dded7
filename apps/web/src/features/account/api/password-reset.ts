import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** The server answers the same whether or not the account exists. */
export function requestPasswordReset(email: string): Promise<unknown> {
  return apiFetch(apiPaths.passwordReset(), { method: 'POST', body: { email } });
}

export function confirmPasswordReset(token: string, password: string): Promise<unknown> {
  return apiFetch(apiPaths.passwordResetConfirm(), {
    method: 'POST',
    body: { token, password },
  });
}
