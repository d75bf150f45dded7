import { navigate } from 'wouter/use-browser-location';

/**
 * The spec's links and every message's ticket link are hash routes (`/#/ticket/QL-1?k=…`):
 * the key in the fragment never reaches a server or its logs. Path routes took over, so the
 * app turns such an address into its path before it renders (no reload, no request).
 * Null when the address carries no hash route. Leading slashes collapse to one so a crafted
 * `/#//host/x` stays a path of this origin (`//host/x` would be another origin's URL).
 */
export function pathFromHashRoute(hash: string): string | null {
  if (!hash.startsWith('#/')) return null;
  // Backslashes too: a URL parser reads `/\\host` as `//host`.
  return `/${hash.slice(2).replace(/^[/\\]+/, '')}`;
}

/** Replaces a hash-route address with its path (history.replaceState: nothing is loaded). */
export function adoptHashRoute(): void {
  const target = pathFromHashRoute(location.hash);
  if (target === null) return;
  // Whatever a crafted link holds, the app still starts (on its home page at worst).
  if (new URL(target, location.href).origin !== location.origin) return;
  try {
    history.replaceState(history.state, '', target);
  } catch {
    // A URL the browser refuses: stay on the address as it is.
  }
}

/** Paths the server answers itself: a link to them is a real page load. */
const SERVER_PATHS = /^\/(?:api|media|assets)(?:\/|$)/;

/**
 * The pages' links are plain `<a href="/x">` (they work before the JavaScript runs, and
 * with it off); once the app runs, a click on one of this origin's pages navigates in the
 * app instead of loading the page again. Links a handler already took, new-tab clicks,
 * downloads, other targets, other origins and the server's own paths stay the browser's.
 */
export function interceptLinkClicks(root: Document = document): () => void {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.('a');
    if (!anchor?.hasAttribute('href')) return;
    if (anchor.hasAttribute('download')) return;
    if (anchor.target && anchor.target !== '_self') return;
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin || SERVER_PATHS.test(url.pathname)) return;
    // A same-page anchor (#main) is the browser's.
    if (url.pathname === location.pathname && url.search === location.search && url.hash) return;
    event.preventDefault();
    const to = `${url.pathname}${url.search}`;
    if (to !== `${location.pathname}${location.search}`) navigate(to);
  };
  root.addEventListener('click', onClick);
  return () => root.removeEventListener('click', onClick);
}
