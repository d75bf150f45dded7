import { isAbortError } from './abort.js';
import { isRecord, nonEmptyString } from './campay-values.js';

/**
 * HTTP plumbing for the Campay adapter: one request with the caller's abort signal, the
 * token cache with a single-flight refresh, and one authenticated retry after a 401.
 */

export type HttpOutcome =
  | { kind: 'response'; status: number; body: unknown }
  | { kind: 'timeout'; error: unknown }
  | { kind: 'network'; error: unknown };

/** Refresh the token this long before Campay says it expires (capped at half its lifetime). */
const TOKEN_REFRESH_MARGIN_MS = 60_000;
/** Used when the token response carries no usable expires_in; a 401 still forces a refresh. */
const DEFAULT_TOKEN_LIFETIME_MS = 10 * 60_000;

interface CachedToken {
  value: string;
  /** Epoch ms after which we fetch a new token instead of using this one. */
  refreshAt: number;
}

export class TokenRequestError extends Error {
  readonly kind: 'auth' | 'unavailable';
  readonly detail: string;
  constructor(kind: 'auth' | 'unavailable', detail: string, options?: { cause?: unknown }) {
    super(`Campay token request failed: ${detail}`, options);
    this.name = 'TokenRequestError';
    this.kind = kind;
    this.detail = detail;
  }
}

/** Rejects as soon as the signal aborts, without waiting for the promise. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export interface CampayHttpConfig {
  /** Without a trailing "/". */
  baseUrl: string;
  username: string;
  password: string;
  fetch: typeof fetch;
  now: () => Date;
}

export interface CampayHttp {
  /**
   * Sends an authenticated call. On 401 it drops the token, fetches a new one and retries
   * once. TokenRequestError escapes for the caller to map.
   */
  authenticated(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal,
    json?: unknown,
  ): Promise<HttpOutcome>;
}

export function createCampayHttp(config: CampayHttpConfig): CampayHttp {
  const { baseUrl, now } = config;
  let cachedToken: CachedToken | null = null;
  let pendingToken: Promise<string> | null = null;

  async function request(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal,
    init: { token?: string; json?: unknown } = {},
  ): Promise<HttpOutcome> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (init.token !== undefined) headers.Authorization = `Token ${init.token}`;
    if (init.json !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const response = await config.fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
        signal,
        redirect: 'error',
      });
      const text = await response.text();
      let body: unknown = null;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON (an HTML error page from a proxy, say): keep no body at all.
          body = null;
        }
      }
      return { kind: 'response', status: response.status, body };
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return { kind: 'timeout', error };
      return { kind: 'network', error };
    }
  }

  async function fetchToken(signal: AbortSignal): Promise<string> {
    const outcome = await request('POST', '/api/token/', signal, {
      json: { username: config.username, password: config.password },
    });
    if (outcome.kind === 'timeout') {
      throw new TokenRequestError('unavailable', 'timeout', { cause: outcome.error });
    }
    if (outcome.kind === 'network') {
      throw new TokenRequestError('unavailable', 'network error', { cause: outcome.error });
    }
    const { status, body } = outcome;
    if (status >= 200 && status < 300) {
      const token = isRecord(body) ? nonEmptyString(body.token) : null;
      if (token === null) throw new TokenRequestError('unavailable', 'response has no token');
      const expiresIn = isRecord(body) ? Number(body.expires_in) : Number.NaN;
      const lifetimeMs =
        Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : DEFAULT_TOKEN_LIFETIME_MS;
      const margin = Math.min(TOKEN_REFRESH_MARGIN_MS, lifetimeMs / 2);
      cachedToken = { value: token, refreshAt: now().getTime() + lifetimeMs - margin };
      return token;
    }
    if (status === 400 || status === 401 || status === 403) {
      throw new TokenRequestError('auth', `credentials refused (HTTP ${status})`);
    }
    throw new TokenRequestError('unavailable', `HTTP ${status}`);
  }

  /** A valid cached token, or a new one; concurrent callers share one token request. */
  async function getToken(signal: AbortSignal): Promise<string> {
    if (cachedToken && now().getTime() < cachedToken.refreshAt) return cachedToken.value;
    if (!pendingToken) {
      cachedToken = null;
      pendingToken = fetchToken(signal).finally(() => {
        pendingToken = null;
      });
    }
    return untilAborted(pendingToken, signal);
  }

  function dropToken(token: string): void {
    if (cachedToken?.value === token) cachedToken = null;
  }

  async function authenticated(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal,
    json?: unknown,
  ): Promise<HttpOutcome> {
    const token = await getToken(signal);
    const first = await request(method, path, signal, { token, json });
    if (first.kind !== 'response' || first.status !== 401) return first;
    dropToken(token);
    const fresh = await getToken(signal);
    return request(method, path, signal, { token: fresh, json });
  }

  return { authenticated };
}
