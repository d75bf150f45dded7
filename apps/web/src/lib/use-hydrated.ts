import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False on the server and while the browser hydrates the server's page, true otherwise
 * (from the render after hydration on). What only this device knows (its storage) must
 * wait for it, or the browser's first render would differ from the server's markup.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
