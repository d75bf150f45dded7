import type { LoginRequest, LoginResponse } from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/**
 * Signs in. The server also sets the HttpOnly session cookie that every later call sends;
 * the token in the answer is for API clients and is deliberately not kept by the browser.
 */
export async function login(request: LoginRequest): Promise<LoginResponse['user']> {
  const body = await apiFetch<LoginResponse>(apiPaths.login(), { method: 'POST', body: request });
  return body.user;
}
