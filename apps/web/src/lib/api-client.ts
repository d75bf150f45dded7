import type { ErrorCode, FieldProblem } from '@qless/contract';
import { actingBranchHeaders } from './acting-branch';

/** A non-OK answer from the API, or a network failure (status 0, code null). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | null,
    message: string,
    /** Each field the server refused, with that field's own code. */
    readonly details: readonly FieldProblem[] = [],
    /** Seconds to wait before trying again (the Retry-After header), when the server said. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function isErrorBody(
  value: unknown,
): value is { code: ErrorCode; message: string; details?: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

function isFieldProblem(value: unknown): value is FieldProblem {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { path?: unknown }).path === 'string' &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}

function retryAfterSeconds(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

type Unauthorized = (error: ApiError) => void;
const unauthorizedListeners = new Set<Unauthorized>();

/**
 * Called with every 401 the API answers (a session that ended mid-use), so the one place
 * that holds the session can return to the signed-out state whichever screen asked.
 */
export function onUnauthorized(listener: Unauthorized): () => void {
  unauthorizedListeners.add(listener);
  return () => {
    unauthorizedListeners.delete(listener);
  };
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** JSON-encoded, except FormData, which is sent as multipart (the browser sets the boundary). */
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers (e.g. the booking access key). */
  headers?: Record<string, string>;
}

function requestInit(options: RequestOptions): RequestInit {
  const { body } = options;
  const base = { method: options.method ?? 'GET', signal: options.signal ?? null };
  // The organization area's branch of this tab (decision 024); none on public pages.
  const headers = { ...actingBranchHeaders(), ...options.headers, accept: 'application/json' };
  if (body === undefined) return { ...base, headers, body: null };
  if (body instanceof FormData) return { ...base, headers, body };
  return {
    ...base,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

/** fetch + JSON with the API's error body `{ code, message }` turned into an ApiError. */
export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, requestInit(options));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, null, 'Network error');
  }
  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    // Spec section 8: failures are logged with status and body for support.
    console.error(`Status: ${response.status} - ${text}`);
    const error = isErrorBody(data)
      ? new ApiError(
          response.status,
          data.code,
          data.message,
          Array.isArray(data.details) ? data.details.filter(isFieldProblem) : [],
          retryAfterSeconds(response.headers.get('retry-after')),
        )
      : new ApiError(
          response.status,
          null,
          response.statusText || `HTTP ${response.status}`,
          [],
          retryAfterSeconds(response.headers.get('retry-after')),
        );
    if (response.status === 401) for (const listener of unauthorizedListeners) listener(error);
    throw error;
  }
  return data as T;
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

declare const BODY: unique symbol;

/**
 * One GET of the API as the app asks it: its path with its query, which is also the key of
 * its answer in a server-rendered page's data, and the type of its body. The hook that reads
 * an answer and the route's first data (what the server embeds, app/first-data.ts) build the
 * query with the same function: they cannot ask different paths, and both see the body's type.
 */
export interface ApiQuery<B> {
  readonly path: string;
  /** Never set: carries the body's type. */
  readonly [BODY]?: B;
}

export function apiQuery<B>(path: string): ApiQuery<B> {
  return { path };
}

export function fetchQuery<B>(query: ApiQuery<B>, signal?: AbortSignal): Promise<B> {
  return apiFetch<B>(query.path, { signal });
}
