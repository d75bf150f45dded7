/**
 * The service worker (decision 113), built on its own into dist/sw.js by build/offline.ts,
 * which writes the build's version and files in place of `__QLESS_OFFLINE__`.
 *
 * It keeps the app's shell and the files a ticket and My bookings need, and answers only:
 * - a visit of a ticket or of My bookings: the network first, always (so after a deploy the
 *   next online visit is the new app); its shell only when the network fails;
 * - a GET of one of the files it keeps: its copy (their names carry their hash).
 * Everything else (the API, the organization area, other pages, payments) is not touched.
 * The customer's tickets are saved by the pages themselves, with their keys, on the device.
 *
 * It also shows web pushes (decision 142) and says so to the server, which then spares the SMS
 * waiting behind; a tap on one opens its page (a tab already on it is brought forward).
 */
import {
  APP_SHELL_URL,
  CACHE_PREFIX,
  cacheName,
  isKeptFile,
  isOfflinePage,
  type OfflineManifest,
} from './offline-rules';
import { PUSH_SHOWN_URL, readPush } from './push-rules';

declare const __QLESS_OFFLINE__: OfflineManifest;

// The worker's own events: the app's TypeScript settings know the DOM, not worker scopes.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown } | null;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: { readonly data: unknown; close(): void };
}
interface WindowClient {
  readonly url: string;
  focus(): Promise<unknown>;
}
interface WorkerScope {
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
  skipWaiting(): Promise<void>;
  readonly clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window' }): Promise<readonly WindowClient[]>;
    openWindow(url: string): Promise<unknown>;
  };
  readonly registration: {
    showNotification(title: string, options: Record<string, unknown>): Promise<void>;
  };
  readonly location: { readonly origin: string };
}

const worker = self as unknown as WorkerScope;
const manifest = __QLESS_OFFLINE__;
const CACHE = cacheName(manifest.version);

/** The shell must start this build's entry, or offline it would start a missing file. */
const MODULE_META = /<meta name="qless-module" content="([^"]+)"/;

async function install(): Promise<void> {
  const cache = await caches.open(CACHE);
  // Through the browser's HTTP cache: what the page just loaded is not downloaded again.
  await cache.addAll([APP_SHELL_URL, ...manifest.required]);
  const shell = await cache.match(APP_SHELL_URL);
  const entry = MODULE_META.exec((await shell?.text()) ?? '')?.[1];
  if (!entry || !manifest.required.includes(entry)) {
    // The server already has another build: this worker is outdated; the browser will
    // fetch the new one on the next visit.
    await caches.delete(CACHE);
    throw new Error('The app shell is of another build');
  }
  await Promise.all(
    manifest.optional.map(async (url) => {
      try {
        const response = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin' });
        if (response.ok) await cache.put(url, response);
      } catch {
        // Not in the browser's cache: left to the network.
      }
    }),
  );
}

async function activate(): Promise<void> {
  // A new build's worker removes the files of the builds before it.
  const names = await caches.keys();
  await Promise.all(
    names
      .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
      .map((name) => caches.delete(name)),
  );
  await worker.clients.claim();
}

/** A ticket or My bookings: the network's page whenever there is a network. */
async function page(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await caches.match(APP_SHELL_URL, { cacheName: CACHE });
    if (shell) return shell;
    throw error;
  }
}

async function kept(request: Request): Promise<Response> {
  return (await caches.match(request, { cacheName: CACHE })) ?? fetch(request);
}

worker.addEventListener('install', (event) => {
  event.waitUntil(install().then(() => worker.skipWaiting()));
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(activate());
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (request.mode === 'navigate') {
    if (isOfflinePage(url.pathname)) event.respondWith(page(request));
    return;
  }
  if (url.search === '' && isKeptFile(url.pathname, manifest)) event.respondWith(kept(request));
});

/** Shows a push, then tells the server it was shown (only that counts as delivered). */
async function showPush(data: unknown): Promise<void> {
  const push = readPush(data, worker.location.origin);
  if (!push) return;
  await worker.registration.showNotification(push.title, {
    body: push.body,
    tag: push.tag,
    renotify: true,
    icon: '/favicon.svg',
    data: { url: push.url },
  });
  try {
    await fetch(PUSH_SHOWN_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ receipt: push.receipt }),
    });
  } catch {
    // No network now: the SMS follows as if the push had not come, which is the safe side.
  }
}

worker.addEventListener('push', (event) => {
  let data: unknown = null;
  try {
    data = event.data?.json() ?? null;
  } catch {
    return;
  }
  event.waitUntil(showPush(data));
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const { url } = (event.notification.data ?? {}) as { url?: unknown };
  if (typeof url !== 'string') return;
  event.waitUntil(
    (async () => {
      const open = (await worker.clients.matchAll({ type: 'window' })).find((c) => c.url === url);
      if (open) await open.focus();
      else await worker.clients.openWindow(url);
    })(),
  );
});
