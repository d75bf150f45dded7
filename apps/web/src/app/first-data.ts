import type { RouteParams } from 'regexparam';
import type { ApiQuery } from '../lib/api-client';

/** An answer the page's data asked for: its body when it succeeded, else whether "not found". */
export type Answer<B> = { ok: true; body: B } | { ok: false; notFound: boolean };

export interface FirstDataContext<P extends string> {
  /** The route's parameters, as the page's `useParams` reads them. */
  params: RouteParams<P>;
  /** The address's query without `?`, as the page's `useSearch` reads it. */
  query: string;
  /**
   * Asks the API as the page's hook does (same query, same path) and keeps a success or a
   * "not found" for the page's first render; any other failure is left to the browser.
   */
  ask: <B>(query: ApiQuery<B>) => Promise<Answer<B>>;
}

/** `not-found`: the page answers 404 (its id is unknown), with the not-found markup it renders. */
export type FirstDataOutcome = 'found' | 'not-found';

/**
 * The API answers a route's page starts from (vike's `+data`, a react-router loader), run on
 * the server only. `pattern` ties it to its route: the route table accepts it for that
 * pattern alone, and `params` has that pattern's names.
 */
export interface FirstData<P extends string> {
  readonly pattern: P;
  load(context: FirstDataContext<P>): Promise<FirstDataOutcome>;
}

export function firstData<P extends string>(
  pattern: P,
  load: (context: FirstDataContext<P>) => Promise<FirstDataOutcome>,
): FirstData<P> {
  return { pattern, load };
}
