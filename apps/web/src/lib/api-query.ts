import { apiFetch } from './api-client';

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
