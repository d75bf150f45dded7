import { useSyncExternalStore } from 'react';

/**
 * Hash routing whose query lives in the hash too: `#/organizations?q=etat&page=2`,
 * `#/ticket/QL-1?k=…`. wouter's own hash hook reads the query from before the hash
 * (`/?q=…#/organizations`), so a shared link written the natural way would not match its
 * route; this one splits the hash into path and search, and writes both into the hash.
 */
const HASH_PREFIX = /^#?\/?/;

function hashParts(hash: string): { path: string; search: string } {
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

/** The path of the hash, without its query (what routes match). */
export function useHashLocation(): [string, typeof navigate] {
  return [
    useSyncExternalStore(
      subscribe,
      () => hashParts(location.hash).path,
      () => '/',
    ),
    navigate,
  ];
}

/** The query of the hash, without "?" (wouter's useSearch reads it through the Router). */
export function useHashSearch(): string {
  return useSyncExternalStore(
    subscribe,
    () => hashParts(location.hash).search,
    () => '',
  );
}

useHashLocation.hrefs = (href: string) => `#${href}`;

export { hashParts };
