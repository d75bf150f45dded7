import { type RefObject, useEffect } from 'react';

/**
 * Moves focus to a page's heading when the page opens, so a screen reader announces where
 * the reader landed and Tab starts from the content (the heading needs tabIndex={-1}).
 */
export function useFocusOnMount(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, [ref]);
}
