import { useEffect } from 'react';
import { SERVICE_WORKER_URL } from '../sw/offline-rules';

let asked = false;

/**
 * Registers the offline ticket's service worker (decision 113) once the page has loaded and
 * the browser is idle: it must not compete with the page's own first download on 2G. Only
 * the customer's own pages (a ticket, My bookings) ask for it. Not in development (Vite's
 * server has no worker) nor where browsers have none.
 */
export function registerServiceWorker(): void {
  if (asked || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  asked = true;
  const register = () => {
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => {
      // No offline copy of the app on this browser; the pages work as before.
    });
  };
  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 5000 });
    else setTimeout(register, 1000);
  };
  if (document.readyState === 'complete') whenIdle();
  else addEventListener('load', whenIdle, { once: true });
}

/** The customer's own pages call this: once they were opened, they open offline. */
export function useOfflineSupport(): void {
  useEffect(registerServiceWorker, []);
}

/** Runs `callback` each time the browser gets its network back, while `active`. */
export function useWhenOnline(active: boolean, callback: () => void): void {
  useEffect(() => {
    if (!active) return;
    addEventListener('online', callback);
    return () => removeEventListener('online', callback);
  }, [active, callback]);
}
