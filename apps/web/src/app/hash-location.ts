import { useSyncExternalStore } from 'react';

/**
 * Hash routing whose query lives in the hash: `#/organizations?q=etat&page=2`,
 * `#/ticket/QL-1?k=…`, so a shared link carries it. wouter's own hash hook writes a query
 * before the hash (`/?q=…#/organizations`) and its routes match the whole hash, query
 * included; here navigation keeps the query in the hash, `useSearch()` reads it from there,
 * and routes match the path whatever query follows (`routeParser`). The location itself is
 * the whole hash, as before, so code that reads a query from it keeps working.
 */
const HASH_PREFIX = /^#?\/?/;

export function hashParts(hash: string): { path: string; search: string } {
  const raw = hash.replace(HASH_PREFIX, '');
  const at = raw.indexOf('?');
  return at < 0
    ? { path: `/${raw}`, search: '' }
    : { path: `/${raw.slice(0, at)}`, search: raw.slice(at + 1) };
}

let listeners: (() => void)[] = [];
const notify = () => {
  for (const listener of listeners) listener();
};

function subscribe(listener: () => void): () => void {
  if (listeners.push(listener) === 1) addEventListener('hashchange', notify);
  return () => {
    listeners = listeners.filter((l) => l !== listener);
    if (listeners.length === 0) removeEventListener('hashchange', notify);
  };
}

/** Goes to an in-app path, which may carry a `?query`; `replace` keeps the history entry. */
export function navigate(
  to: string,
  { state = null, replace = false }: { state?: unknown; replace?: boolean } = {},
): void {
  const oldURL = location.href;
  const url = new URL(oldURL);
  url.hash = `/${to.replace(HASH_PREFIX, '')}`;
  const newURL = url.href;
  history[replace ? 'replaceState' : 'pushState'](state, '', newURL);
  dispatchEvent(new HashChangeEvent('hashchange', { oldURL, newURL }));
}

/** The whole hash as the location (`/organizations?q=etat`). */
export function useHashLocation(): [string, typeof navigate] {
  return [
    useSyncExternalStore(
      subscribe,
      () => `/${location.hash.replace(HASH_PREFIX, '')}`,
      () => '/',
    ),
    navigate,
  ];
}

/** The query of the hash, without "?" (wouter's `useSearch()` reads it through the Router). */
export function useHashSearch(): string {
  return useSyncExternalStore(
    subscribe,
    () => hashParts(location.hash).search,
    () => '',
  );
}

useHashLocation.hrefs = (href: string) => `#${href}`;

type Parser = (
  route: string,
  loose?: boolean,
) => { pattern: Pick<RegExp, 'exec'>; keys?: string[] };

/**
 * A route parser (wouter's, given) whose patterns also match a path followed by a query:
 * `/organizations` matches `/organizations?q=etat`, and `/ticket/:code` gives the code
 * without the `?k=…` after it.
 */
export function routeParser(parse: Parser): Parser {
  return (route, loose) => {
    const { pattern, keys } = parse(route, loose);
    // wouter's parser (regexparam) gives a RegExp; anything else is left as it is.
    if (!(pattern instanceof RegExp)) return { pattern, keys };
    let source = pattern.source;
    if (source.endsWith('$')) {
      // A parameter stops at "?" too; the query may follow the path.
      source = `${source.slice(0, -1).replaceAll('([^\\/]+?)', '([^\\/?]+?)')}(?:\\?.*)?$`;
    } else {
      source = source.replace(/\(\?=\$\|\\\/\)$/, '(?=$|\\/|\\?)');
    }
    return { pattern: new RegExp(source, pattern.flags), keys };
  };
}
