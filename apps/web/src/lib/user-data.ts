/**
 * Data a signed-in person keeps on the device (the check-in desk's list of the day, its queue of
 * offline check-ins) lives under one prefix, so signing out can remove all of it: a desk
 * device is shared, and the list holds customers' names and ticket codes.
 */
const PREFIX = 'qless.user-data.';

export function userDataKey(name: string): string {
  return `${PREFIX}${name}`;
}

export function clearUserData(): void {
  try {
    const keys: string[] = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key?.startsWith(PREFIX)) keys.push(key);
    }
    for (const key of keys) localStorage.removeItem(key);
  } catch {
    // Storage disabled: nothing was kept.
  }
}
