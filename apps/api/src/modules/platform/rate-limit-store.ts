import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { type CounterHit, hitCounter, readCounter } from '../../db/rate-counters.js';
import type { DB } from '../../db/schema.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit that counts in the database, so a limit holds in sum over
 * every process (the plugin's default store counts in one process's memory).
 */
export function databaseRateLimitStore(db: Kysely<DB>, clock: Clock): FastifyRateLimitStoreCtor {
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
      report(hitCounter(db, this.key(key), timeWindow, clock.now()), cb);
    }

    read(key: string, cb: Callback, timeWindow: number): void {
      report(readCounter(db, this.key(key), timeWindow, clock.now()), cb);
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
