import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearUserData } from '../../../lib/user-data';
import {
  claimFor,
  loadQueue,
  loadToday,
  type QueuedCheckin,
  saveQueue,
  saveToday,
} from './offline-store';

/** The Web Storage API over a Map (the unit tests run in Node, which has none). */
function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    key: (i: number) => [...data.keys()][i] ?? null,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, String(v)),
    removeItem: (k: string) => void data.delete(k),
    clear: () => data.clear(),
  };
}

const today = { bookings: [{ cus_name: 'Ngono Marie' }], keys: [{}] } as unknown as Parameters<
  typeof saveToday
>[0];
const queued: QueuedCheckin = {
  code: 'QL-7K4M-2QAB-XC9D',
  scanned_at: '2026-03-04T08:30:00.000Z',
  client_id: '11111111-1111-4111-8111-111111111111',
  cus_name: 'Ngono Marie',
} as QueuedCheckin;

describe('the desk device’s copy of the day', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  it('stays with the account that made it', () => {
    expect(claimFor('staff-a')).toBe(0);
    saveToday(today);
    saveQueue([queued]);
    expect(claimFor('staff-a')).toBe(0);
    expect(loadToday()).not.toBeNull();
    expect(loadQueue()).toHaveLength(1);
  });

  it('is dropped, queue included, when another account opens the screen on the device', () => {
    claimFor('staff-a');
    saveToday(today);
    saveQueue([queued, { ...queued, client_id: '22222222-2222-4222-8222-222222222222' }]);
    expect(claimFor('staff-b')).toBe(2);
    expect(loadToday()).toBeNull();
    expect(loadQueue()).toEqual([]);
  });

  it('is removed by signing out, with nothing else of the site', () => {
    localStorage.setItem('qless.lang', 'fr');
    claimFor('staff-a');
    saveToday(today);
    saveQueue([queued]);
    clearUserData();
    expect(loadToday()).toBeNull();
    expect(loadQueue()).toEqual([]);
    expect(localStorage.getItem('qless.lang')).toBe('fr');
    expect(localStorage.length).toBe(1);
  });
});
