import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FixedClock } from '../../core/clock.js';
import type { Database } from '../../db/database.js';
import { nextLocalMidnight } from './catalog-reads.js';
import { matchesIfNoneMatch, ReadCache } from './read-cache.js';

const schema = z.object({ n: z.number() });

/** A database whose only use here is the listener; `notify` plays a trigger's NOTIFY. */
function fakeDatabase() {
  let deliver: (payload: string) => void = () => undefined;
  let lose: () => void = () => undefined;
  const database = {
    engine: 'pglite',
    async listen(_channel: string, onPayload: (p: string) => void, onLost?: () => void) {
      deliver = onPayload;
      lose = onLost ?? (() => undefined);
      return async () => undefined;
    },
  } as unknown as Database;
  return { database, notify: (p: string) => deliver(p), lose: () => lose() };
}

async function started(options: Partial<ConstructorParameters<typeof ReadCache>[0]> = {}) {
  const clock = new FixedClock('2026-03-04T08:30:00Z');
  const cache = new ReadCache({
    clock,
    enabled: true,
    maxEntries: 100,
    maxBytes: 1024 * 1024,
    maxAgeMs: 60_000,
    ...options,
  });
  const fake = fakeDatabase();
  await cache.start(fake.database);
  return { cache, clock, ...fake };
}

describe('ReadCache', () => {
  it('answers a fill marked keep: false without keeping it (keys a client varies at will)', async () => {
    const { cache } = await started();
    let computed = 0;
    const read = (keep: boolean) =>
      cache.read(`k${keep}`, schema, async () => {
        computed += 1;
        return { value: { n: computed }, topics: ['catalog'], keep };
      });
    expect((await read(false)).body).toBe('{"n":1}');
    expect((await read(false)).body).toBe('{"n":2}');
    expect(cache.size).toBe(0);
    expect((await read(true)).body).toBe('{"n":3}');
    expect((await read(true)).body).toBe('{"n":3}');
    expect(cache.size).toBe(1);
  });

  it('computes once, then serves the same bytes until a topic of the entry is notified', async () => {
    const { cache, notify } = await started();
    let computed = 0;
    const read = () =>
      cache.read('k', schema, async () => {
        computed += 1;
        return { value: { n: computed }, topics: ['org:1', 'taken:2'] };
      });
    const first = await read();
    expect(first.body).toBe('{"n":1}');
    expect(await read()).toMatchObject(first);
    notify('org:9');
    expect((await read()).body).toBe('{"n":1}');
    notify('taken:2');
    const third = await read();
    expect(third.body).toBe('{"n":2}');
    expect(third.etag).not.toBe(first.etag);
    notify('*');
    expect((await read()).body).toBe('{"n":3}');
  });

  it('shares one computation between concurrent misses, but never across a notification', async () => {
    const { cache, notify } = await started();
    let computed = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const compute = async () => {
      computed += 1;
      const n = computed;
      await gate;
      return { value: { n }, topics: ['catalog'] };
    };
    const a = cache.read('k', schema, compute);
    const b = cache.read('k', schema, compute);
    notify('catalog');
    const c = cache.read('k', schema, compute);
    release();
    expect((await a).body).toBe('{"n":1}');
    expect((await b).body).toBe('{"n":1}');
    expect((await c).body).toBe('{"n":2}');
    // The first fill overlapped a notification: it was not kept; the second was.
    expect((await cache.read('k', schema, compute)).body).toBe('{"n":2}');
    expect(computed).toBe(2);
  });

  // Before: one counter for every topic, so a booking anywhere discarded every fill in flight.
  it('keeps a fill that overlapped a notification of another topic only', async () => {
    const { cache, notify } = await started();
    let computed = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const compute = async () => {
      computed += 1;
      const n = computed;
      await gate;
      return { value: { n }, topics: ['org:1', 'slots:2'] };
    };
    const a = cache.read('k', schema, compute);
    notify('taken:3');
    notify('org:9');
    // Joins the fill in flight: what was notified since it started concerns other answers.
    const b = cache.read('k', schema, compute);
    release();
    expect((await a).body).toBe('{"n":1}');
    expect((await b).body).toBe('{"n":1}');
    expect((await cache.read('k', schema, compute)).body).toBe('{"n":1}');
    expect(computed).toBe(1);
    expect(cache.size).toBe(1);
  });

  it('discards a fill that overlapped a notification of one of its topics', async () => {
    const { cache, notify } = await started();
    let computed = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const compute = async () => {
      computed += 1;
      const n = computed;
      if (n === 1) await gate;
      return { value: { n }, topics: ['org:1', 'slots:2'] };
    };
    const a = cache.read('k', schema, compute);
    notify('slots:2');
    const b = cache.read('k', schema, compute);
    release();
    expect((await a).body).toBe('{"n":1}');
    // Arrived after the notification: the fill it found may predate the write.
    expect((await b).body).toBe('{"n":2}');
    expect((await cache.read('k', schema, compute)).body).toBe('{"n":2}');
    expect(computed).toBe(2);
  });

  it('validates against the schema when filling and refuses a wrong answer', async () => {
    const { cache } = await started();
    await expect(
      cache.read('k', schema, async () => ({
        value: { n: 'one' } as unknown as { n: number },
        topics: [],
      })),
    ).rejects.toThrow();
    expect(cache.size).toBe(0);
  });

  it('lets entries lapse at their time and at the maximum age', async () => {
    const { cache, clock } = await started();
    let computed = 0;
    const read = (expiresIn?: number) =>
      cache.read(`k${expiresIn ?? ''}`, schema, async () => {
        computed += 1;
        return {
          value: { n: computed },
          topics: [],
          ...(expiresIn === undefined ? {} : { expiresAt: clock.now().getTime() + expiresIn }),
        };
      });
    await read(1000);
    clock.advance(999);
    await read(1000);
    expect(computed).toBe(1);
    clock.advance(1);
    await read(1000);
    expect(computed).toBe(2);
    await read();
    clock.advance(59_999);
    await read();
    expect(computed).toBe(3);
    clock.advance(1);
    await read();
    expect(computed).toBe(4);
  });

  it('keeps at most maxEntries and maxBytes, dropping the least recently used', async () => {
    const { cache } = await started({ maxEntries: 3, maxBytes: 1000 });
    const fill = (key: string, n = 1) =>
      cache.read(key, z.object({ s: z.string() }), async () => ({
        value: { s: 'x'.repeat(n) },
        topics: ['t'],
      }));
    for (const key of ['a', 'b', 'c']) await fill(key);
    await fill('a'); // a is now the most recent
    await fill('d');
    expect(cache.size).toBe(3);
    let recomputed = false;
    await cache.read('b', z.object({ s: z.string() }), async () => {
      recomputed = true;
      return { value: { s: 'x' }, topics: [] };
    });
    expect(recomputed).toBe(true);
    // 300 characters are 600+ bytes: two of them do not fit in 1000.
    await fill('big1', 300);
    await fill('big2', 300);
    expect(cache.size).toBeLessThanOrEqual(2);
    await fill('huge', 1000);
    expect(cache.size).toBeLessThanOrEqual(2);
  });

  it('serves nothing from memory while the listener is lost, and starts empty once back', async () => {
    const { cache, notify, lose } = await started();
    let computed = 0;
    const read = () =>
      cache.read('k', schema, async () => {
        computed += 1;
        return { value: { n: computed }, topics: [] };
      });
    await read();
    lose();
    expect(cache.serving).toBe(false);
    await read();
    await read();
    expect(computed).toBe(3);
    expect(cache.size).toBe(0);
    notify('');
    expect(cache.serving).toBe(true);
    await read();
    await read();
    expect(computed).toBe(4);
  });

  it('keeps nothing when disabled', async () => {
    const { cache } = await started({ enabled: false });
    let computed = 0;
    for (let i = 0; i < 2; i++) {
      await cache.read('k', schema, async () => {
        computed += 1;
        return { value: { n: computed }, topics: [] };
      });
    }
    expect(computed).toBe(2);
  });
});

describe('matchesIfNoneMatch', () => {
  it('compares weakly and reads lists and *', () => {
    expect(matchesIfNoneMatch('"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('W/"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b", "a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('*', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b"', '"a"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"a"')).toBe(false);
  });
});

describe('nextLocalMidnight', () => {
  it('is the first instant of the next local day', () => {
    expect(
      new Date(nextLocalMidnight('Africa/Douala', new Date('2026-03-04T08:30:12.345Z'))),
    ).toEqual(new Date('2026-03-04T23:00:00Z'));
    expect(
      new Date(nextLocalMidnight('Pacific/Kiritimati', new Date('2026-03-04T08:30:00Z'))),
    ).toEqual(new Date('2026-03-04T10:00:00Z'));
  });

  it('falls back to a short life when a clock change makes the day longer or shorter', () => {
    // Paris springs forward on 29 March 2026: that day has 23 hours, computed rightly or
    // replaced by a short life, never later than the real midnight.
    const now = new Date('2026-03-29T00:30:00Z');
    const at = nextLocalMidnight('Europe/Paris', now);
    expect(at).toBeLessThanOrEqual(new Date('2026-03-29T22:00:00Z').getTime());
    expect(at).toBeGreaterThan(now.getTime());
  });
});
