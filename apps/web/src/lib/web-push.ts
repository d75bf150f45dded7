import type {
  PushAbout,
  PushKeyResponse,
  PushSubscribeRequest,
  PushUnsubscribeRequest,
} from '@qless/contract';
import { SERVICE_WORKER_URL } from '../sw/offline-rules';
import { apiFetch } from './api-client';
import { apiPaths } from './api-paths';

/**
 * Web push on the customer's phone (decision 142): "Notify me on this phone" asks the browser,
 * subscribes through the app's service worker and gives the subscription to the server for one
 * booking or visit. The server then pushes the turn first and sends the SMS only when no push
 * was shown in time.
 */
export type PushState =
  | 'unsupported'
  | 'off'
  | 'asking'
  | 'on'
  | 'denied'
  | 'failed'
  | 'stopping'
  | 'stopFailed';

const REMEMBERED = 'qless.push.';

function aboutKey(about: PushAbout): string {
  return 'booking' in about ? `booking:${about.booking}` : `visit:${about.visit}`;
}

/** Whether this browser can be notified: a service worker, push and notifications (built app only). */
export function pushSupported(): boolean {
  return (
    import.meta.env.PROD &&
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** Where the button starts: on when this phone subscribed for it before and still may. */
export function initialPushState(about: PushAbout): PushState {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const remembered = localStorage.getItem(REMEMBERED + aboutKey(about)) === '1';
  return remembered && Notification.permission === 'granted' ? 'on' : 'off';
}

/** The server's key as the browser takes it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a) return true;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

/**
 * Asks, subscribes and tells the server. Resolves to the state to show: 'on', 'denied' (the
 * browser or the person said no), 'unsupported' (the site has push off) or 'off' (dismissed).
 * Throws when the browser or the server failed (the caller shows "try again").
 */
export async function turnOnPush(
  about: PushAbout,
  key: string,
  locale: 'en' | 'fr',
): Promise<PushState> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'off';
  const { publicKey } = await apiFetch<PushKeyResponse>(apiPaths.pushKey);
  if (!publicKey) return 'unsupported';
  await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  const registration = await navigator.serviceWorker.ready;
  const serverKey = keyBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  // One made with another server key (a reinstalled server) would be refused by its service.
  if (subscription && !sameBytes(subscription.options?.applicationServerKey ?? null, serverKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: serverKey,
  });
  const body: PushSubscribeRequest = {
    about,
    key,
    locale,
    subscription: subscription.toJSON() as PushSubscribeRequest['subscription'],
  };
  await apiFetch(apiPaths.pushSubscriptions, { method: 'POST', body });
  localStorage.setItem(REMEMBERED + aboutKey(about), '1');
  return 'on';
}

/**
 * "Stop": this phone no longer gets news of `about` (the server forgets its subscription for
 * it; the browser's subscription stays for the other bookings it follows). Resolves to 'off';
 * throws when the server could not be told (the caller shows "try again").
 */
export async function turnOffPush(about: PushAbout, key: string): Promise<PushState> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription) {
    const body: PushUnsubscribeRequest = { about, key, endpoint: subscription.endpoint };
    await apiFetch(apiPaths.pushUnsubscribe, { method: 'POST', body });
  }
  localStorage.removeItem(REMEMBERED + aboutKey(about));
  return 'off';
}
