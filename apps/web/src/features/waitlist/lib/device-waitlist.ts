/**
 * The waitlist entries joined from this device (decision 023): the server answers a number
 * joined twice as it answers a first join, so that nobody learns whether a stranger's number
 * waits; this device remembers its own joins to say "already on the list" and to keep the key
 * that takes the number off it.
 */
const KEY = 'qless.waitlist';
/** A device keeps its latest joins; older ones are long past their day. */
const KEEP = 20;

export interface DeviceEntry {
  serviceId: string;
  date: string;
  /** E.164, as the server stores it. */
  phone: string;
  entryId: string;
  key: string | null;
  /** How long an offer stays open, as the server said at the join (older entries: none). */
  offerMinutes?: number;
}

function read(): DeviceEntry[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as DeviceEntry[]) : [];
  } catch {
    return [];
  }
}

export function findDeviceEntry(
  serviceId: string,
  date: string,
  phone: string,
): DeviceEntry | null {
  return (
    read().find((e) => e.serviceId === serviceId && e.date === date && e.phone === phone) ?? null
  );
}

export function rememberDeviceEntry(entry: DeviceEntry): void {
  try {
    const others = read().filter((e) => e.entryId !== entry.entryId);
    localStorage.setItem(KEY, JSON.stringify([entry, ...others].slice(0, KEEP)));
  } catch {
    // Storage full or blocked: the entry is on the list all the same.
  }
}

export function forgetDeviceEntry(entryId: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(read().filter((e) => e.entryId !== entryId)));
  } catch {
    // Nothing kept to forget.
  }
}
