import type { CounterStore } from '../limits/counter-store.js';
import type { CounterHit } from '../limits/counters.js';
import type { RedisLink } from './redis-link.js';

/** Counts and, on the first hit of a window, sets its expiry: one round trip, atomic. */
const HIT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return c`;

/** Takes one back, never below zero, and never creates the key. */
const RELEASE = `local v = tonumber(redis.call('GET', KEYS[1]) or '0')
if v > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

/** Kept past its window's end by this much, so a late read still finds its count. */
const SLACK_MS = 1000;

/**
 * Rate counters in Redis (decision 033): the same fixed windows on the injected clock as the
 * database's rate_counters (the key names the window), expired by Redis instead of pruned.
 *
 * Redis away (refused, timed out, not yet connected): every count falls back to `fallback`,
 * the database's counters, so no limit opens and no request is refused because Redis is
 * down. While only some processes reach Redis, a window's hits are split between the two
 * stores: a limit then lets through up to twice its maximum at worst, for the outage only.
 */
export function redisCounters(
  link: RedisLink,
  fallback: CounterStore,
  onFallback: (err: unknown) => void,
): CounterStore {
  const redis = link.commands;
  const window = (key: string, windowMs: number, at: Date) => {
    const start = Math.floor(at.getTime() / windowMs) * windowMs;
    return {
      redisKey: `${link.prefix}rl:${windowMs}:${start}:${key}`,
      ttlMs: start + windowMs - at.getTime(),
    };
  };
  const orFallback = async <T>(work: () => Promise<T>, instead: () => Promise<T>): Promise<T> => {
    if (redis.status !== 'ready') return instead();
    try {
      return await work();
    } catch (err) {
      onFallback(err);
      return instead();
    }
  };
  return {
    hit(key, windowMs, now, options): Promise<CounterHit> {
      const { redisKey, ttlMs } = window(key, windowMs, now);
      return orFallback(
        async () => {
          const count = Number(await redis.eval(HIT, 1, redisKey, Math.max(1, ttlMs) + SLACK_MS));
          return { count, ttlMs };
        },
        () => fallback.hit(key, windowMs, now, options),
      );
    },
    read(key, windowMs, now): Promise<CounterHit> {
      const { redisKey, ttlMs } = window(key, windowMs, now);
      return orFallback(
        async () => ({ count: Number((await redis.get(redisKey)) ?? 0), ttlMs }),
        () => fallback.read(key, windowMs, now),
      );
    },
    release(key, windowMs, at): Promise<void> {
      const { redisKey } = window(key, windowMs, at);
      return orFallback(
        async () => {
          await redis.eval(RELEASE, 1, redisKey);
        },
        () => fallback.release(key, windowMs, at),
      );
    },
  };
}
