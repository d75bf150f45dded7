import type { Db } from '../db/schema.js';
import { type CounterHit, hitCounter, readCounter, releaseCounter } from './counters.js';

/**
 * Where fixed-window rate counters live, so a limit holds in sum over every process: the
 * database's rate_counters (counters.ts) or Redis (redis-counters.ts, decision 033). Chosen
 * once in app.ts; the limits neither know nor care which.
 */
export interface CounterStore {
  /** Counts one hit on `key` in the window of `windowMs` containing `now`. */
  hit(
    key: string,
    windowMs: number,
    now: Date,
    options?: { lazyCommit?: boolean },
  ): Promise<CounterHit>;
  /** The count so far in that window, without counting. */
  read(key: string, windowMs: number, now: Date): Promise<CounterHit>;
  /** Takes back one hit counted in the window that contained `at`. */
  release(key: string, windowMs: number, at: Date): Promise<void>;
}

export function databaseCounters(db: Db): CounterStore {
  return {
    hit: (key, windowMs, now, options) => hitCounter(db, key, windowMs, now, options),
    read: (key, windowMs, now) => readCounter(db, key, windowMs, now),
    release: (key, windowMs, at) => releaseCounter(db, key, windowMs, at),
  };
}

/**
 * The store of each app, by its config object: limiter() is called by many modules with
 * (db, clock, config), and app.ts decides once, before they are built, where they count.
 */
const stores = new WeakMap<object, CounterStore>();

export function useCounterStore(config: object, store: CounterStore): void {
  stores.set(config, store);
}

/** The app's store; the database's unless app.ts chose another. */
export function counterStoreOf(config: object, db: Db): CounterStore {
  return stores.get(config) ?? databaseCounters(db);
}
