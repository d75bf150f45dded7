import { useSyncExternalStore } from 'react';

/**
 * Whether this browser is signed in, as the site's top bar needs it (signed-in
 * staff saw "Register" and "Log in"). The session lives in an HttpOnly cookie that only the
 * admin area asks about (SessionProvider); it reports here, and the answer is kept as a hint
 * (no secret: a flag) so a public page opened later shows the staff link too. A wrong hint
 * costs one link: the staff area asks the server itself.
 */
const KEY = 'qless.signedIn';
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return globalThis.localStorage?.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

let current = typeof window === 'undefined' ? false : read();

export function setSignedInHint(signedIn: boolean): void {
  if (signedIn === current) return;
  current = signedIn;
  try {
    if (signedIn) globalThis.localStorage?.setItem(KEY, '1');
    else globalThis.localStorage?.removeItem(KEY);
  } catch {
    // Private mode without storage: the hint lasts this page.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The hint, re-rendering on change; false while rendered on the server. */
export function useSignedInHint(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => false,
  );
}
