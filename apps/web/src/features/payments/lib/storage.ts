/** Spec 3: local storage keeps paymentId and paymentStatus (value SUCCESSFUL). */
export const PAYMENT_ID_KEY = 'paymentId';
export const PAYMENT_STATUS_KEY = 'paymentStatus';

export function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage can be full or disabled; the in-page callback still reloads the slots.
  }
}

export function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function removeStorage(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // See writeStorage.
  }
}
