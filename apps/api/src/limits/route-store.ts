import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { DB } from '../db/schema.js';
import { type CounterStore, databaseCounters } from './counter-store.js';
import type { CounterHit } from './counters.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit that counts in the database, so a limit holds in sum over
 * every process (the plugin's default store counts in one process's memory).
 */
export function databaseRateLimitStore(db: Kysely<DB>, clock: Clock): FastifyRateLimitStoreCtor {
  return sharedRateLimitStore(databaseCounters(db), clock);
}

/** The same over any shared counter store (the database's, or Redis: decision 033). */
export function sharedRateLimitStore(
  counters: CounterStore,
  clock: Clock,
): FastifyRateLimitStoreCtor {
  const report = (work: Promise<CounterHit>, cb: Callback) => {
    work.then(
      (hit) => cb(null, { current: hit.count, ttl: hit.ttlMs }),
      (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
    );
  };
  class DatabaseStore implements FastifyRateLimitStore {
    /** Each route counts apart: the route names the counter, the key names the client. */
    constructor(private readonly namespace = '') {}

    incr(key: string, cb: Callback, timeWindow: number): void {
      report(counters.hit(this.key(key), timeWindow, clock.now(), { lazyCommit: true }), cb);
    }

    read(key: string, cb: Callback, timeWindow: number): void {
      report(counters.read(this.key(key), timeWindow, clock.now()), cb);
    }

    child(routeOptions: object): DatabaseStore {
      // The plugin passes the route it merged its options with as `routeInfo`.
      const info = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      const name = info?.url ? `${String(info.method)} ${String(info.url)}` : '';
      return new DatabaseStore(name);
    }

    private key(key: string): string {
      return `rl:${this.namespace}:${key}`.slice(0, 200);
    }
  }
  return DatabaseStore as unknown as FastifyRateLimitStoreCtor;
}

/** Windows counted at once at most (the plugin's in-memory store keeps 5,000). */
const MAX_KEYS = 50_000;

const countsByDatabase = new WeakMap<object, Map<string, { count: number; end: number }>>();

/**
 * The same store counting in this process's memory, for the embedded database: PGlite is
 * opened by one process only, so that process's count is the sum over every process, and a
 * hit costs no committed write (measured under contention: 200 starts at once on PGlite spent a
 * third of their time committing counters one after another). Fixed windows on the injected
 * clock, as the database's; a window is forgotten once it has ended.
 */
export function memoryRateLimitStore(clock: Clock, database: object): FastifyRateLimitStoreCtor {
  // Shared by every app on this database (tests run two on one PGlite, as two processes).
  let counts = countsByDatabase.get(database);
  if (!counts) {
    counts = new Map();
    countsByDatabase.set(database, counts);
  }
  const shared = counts;
  let nextPrune = 0;
  const hit = (key: string, windowMs: number, add: number): { current: number; ttl: number } => {
    const now = clock.now().getTime();
    if (now >= nextPrune) {
      for (const [k, entry] of shared) if (entry.end <= now) shared.delete(k);
      nextPrune = now + 60_000;
    }
    const start = Math.floor(now / windowMs) * windowMs;
    const id = `${key}@${windowMs}@${start}`;
    const entry = shared.get(id) ?? { count: 0, end: start + windowMs };
    entry.count += add;
    if (add > 0 && !shared.has(id)) {
      // Bounded as the plugin's own store is: a flood of addresses forgets the oldest first.
      if (shared.size >= MAX_KEYS) {
        for (const [k, old] of shared) if (old.end <= now) shared.delete(k);
        const oldest = shared.keys().next();
        if (shared.size >= MAX_KEYS && !oldest.done) shared.delete(oldest.value);
      }
      shared.set(id, entry);
    }
    return { current: entry.count, ttl: entry.end - now };
  };
  class MemoryStore implements FastifyRateLimitStore {
    constructor(private readonly namespace = '') {}

    incr(key: string, cb: Callback, timeWindow: number): void {
      cb(null, hit(`${this.namespace}:${key}`, timeWindow, 1));
    }

    read(key: string, cb: Callback, timeWindow: number): void {
      cb(null, hit(`${this.namespace}:${key}`, timeWindow, 0));
    }

    child(routeOptions: object): MemoryStore {
      const info = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      return new MemoryStore(info?.url ? `${String(info.method)} ${String(info.url)}` : '');
    }
  }
  return MemoryStore as unknown as FastifyRateLimitStoreCtor;
}
