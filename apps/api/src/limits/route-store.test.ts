import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../core/clock.js';
import { memoryRateLimitStore } from './route-store.js';

type Store = Omit<FastifyRateLimitStore, 'child'> & { child(options: object): Store };

const hit = (store: Store, key: string, windowMs: number) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.incr(
      key,
      (error, result) => (error || !result ? reject(error) : resolve(result)),
      windowMs,
      100,
    ),
  );

describe('memoryRateLimitStore (PGlite: one process)', () => {
  it('counts hits per route and key in fixed windows of the injected clock', async () => {
    const clock = new FixedClock(new Date('2026-11-26T10:00:10Z'));
    const Ctor = memoryRateLimitStore(clock, {}) as unknown as new (options: object) => Store;
    const root = new Ctor({});
    const initiate = root.child({ routeInfo: { method: 'POST', url: '/payment/initiate' } });
    const login = root.child({ routeInfo: { method: 'POST', url: '/auth/login' } });
    expect(await hit(initiate, '10.0.0.1', 60_000)).toEqual({ current: 1, ttl: 50_000 });
    expect(await hit(initiate, '10.0.0.1', 60_000)).toEqual({ current: 2, ttl: 50_000 });
    // Another client, another route: counted apart.
    expect((await hit(initiate, '10.0.0.2', 60_000)).current).toBe(1);
    expect((await hit(login, '10.0.0.1', 60_000)).current).toBe(1);
    // The next window starts from zero.
    clock.set(new Date('2026-11-26T10:01:00Z'));
    expect(await hit(initiate, '10.0.0.1', 60_000)).toEqual({ current: 1, ttl: 60_000 });
  });

  it('is shared by every app on one database, and only by them', async () => {
    const clock = new FixedClock(new Date('2026-11-26T10:00:00Z'));
    const database = {};
    const route = { routeInfo: { method: 'POST', url: '/contact' } };
    const make = (owner: object) =>
      new (memoryRateLimitStore(clock, owner) as unknown as new (options: object) => Store)(
        {},
      ).child(route);
    const a = make(database);
    const b = make(database);
    const elsewhere = make({});
    await hit(a, '10.0.0.9', 60_000);
    expect((await hit(b, '10.0.0.9', 60_000)).current).toBe(2);
    expect((await hit(elsewhere, '10.0.0.9', 60_000)).current).toBe(1);
  });
});
