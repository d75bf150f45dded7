/**
 * What the service worker answers, and nothing more (decision 113). Kept apart from the
 * worker's event wiring so the rules are unit-tested, and imported by the worker's build.
 */

/** The worker's script, at the root so that its scope is the whole site. */
export const SERVICE_WORKER_URL = '/sw.js';

/**
 * The page the worker gives an offline visit of a ticket or of My bookings: index.html with
 * the header and no landing content (the build writes it beside index.html). The app renders
 * the page of the address over it, from what the device saved.
 */
export const APP_SHELL_URL = '/app-shell.html';

/** Every cache of ours starts so; any other name is left alone. */
export const CACHE_PREFIX = 'qless-offline-';

export const cacheName = (version: string): string => `${CACHE_PREFIX}${version}`;

/**
 * The customer's own pages that open offline: a ticket (`/ticket/{code}`) and My bookings.
 * Nothing else: the organization area, the operator console, the catalogue and every other
 * page go to the network as if there were no worker.
 */
const OFFLINE_PAGE = /^\/(?:ticket\/[^/]+|my-bookings)\/?$/;

export function isOfflinePage(pathname: string): boolean {
  return OFFLINE_PAGE.test(pathname);
}

/** What the build gives the worker: its version and the files of the app it keeps. */
export interface OfflineManifest {
  /** Changes with every build whose files differ (a hash of their hashed names). */
  version: string;
  /** Fetched when the worker installs: the entry, the ticket and My bookings pages, the QR. */
  required: string[];
  /**
   * Kept only if the browser already has them (the French messages of a French reader):
   * a reader of the other language does not download them on a slow line for nothing.
   */
  optional: string[];
}

/**
 * Whether a GET of this origin is one of the app files the worker keeps (answered from its
 * cache first: their names carry their content's hash, so a kept copy is never stale).
 * API answers are never among them: the customer's saved tickets live with their keys in
 * the page's storage, not in the worker's cache.
 */
export function isKeptFile(pathname: string, manifest: OfflineManifest): boolean {
  if (pathname.startsWith('/api/')) return false;
  return (
    pathname === APP_SHELL_URL ||
    manifest.required.includes(pathname) ||
    manifest.optional.includes(pathname)
  );
}
