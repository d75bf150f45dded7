import type { CheckinSyncItem, TodayResponse } from '@qless/contract';
import { userDataKey } from '../../../lib/user-data';

/**
 * What the check-in screen keeps on the device so it works without a network: the day's
 * list with the public key (refreshed whenever the screen is online), and the check-ins
 * made offline, waiting to be sent. localStorage: small, synchronous, survives a reload.
 */
const TODAY_KEY = userDataKey('checkin.today.v1');
const QUEUE_KEY = userDataKey('checkin.queue.v1');
/** Whose list and queue these are: another account on the same device must not use them. */
const OWNER_KEY = userDataKey('checkin.owner.v1');

/** A check-in made offline; `cus_name` is only for the screen, never sent. */
export interface QueuedCheckin extends CheckinSyncItem {
  cus_name: string;
}

function read<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the screen still works online.
  }
}

export function loadToday(): TodayResponse | null {
  const cached = read<TodayResponse>(TODAY_KEY);
  return cached && Array.isArray(cached.bookings) && Array.isArray(cached.keys) ? cached : null;
}

export function saveToday(today: TodayResponse): void {
  write(TODAY_KEY, today);
}

export function loadQueue(): QueuedCheckin[] {
  const queue = read<QueuedCheckin[]>(QUEUE_KEY);
  return Array.isArray(queue) ? queue : [];
}

export function saveQueue(queue: readonly QueuedCheckin[]): void {
  write(QUEUE_KEY, queue);
}

/**
 * Makes the device's copy belong to `ownerId` (the signed-in account). Another account's
 * list and queue are dropped, never sent under this session; answers how many queued
 * check-ins were dropped, so the screen can say so.
 */
export function claimFor(ownerId: string): number {
  const owner = read<string>(OWNER_KEY);
  let discarded = 0;
  if (owner !== null && owner !== ownerId) {
    discarded = loadQueue().length;
    try {
      localStorage.removeItem(TODAY_KEY);
      localStorage.removeItem(QUEUE_KEY);
    } catch {}
  }
  write(OWNER_KEY, ownerId);
  return discarded;
}

export function newClientId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; a desk on plain http still gets a v4 uuid.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
