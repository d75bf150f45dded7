import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../core/clock.js';
import type { DB } from '../../db/schema.js';
import { ScrapeSnapshot } from './scrape-snapshot.js';

/** A database whose every statement answers `answer()` (or never, or fails). */
function fakeDb(answer: () => Promise<unknown[]>): { db: Kysely<DB>; statements: () => number } {
  let statements = 0;
  const pool = {
    connect: async () => ({
      query: async () => {
        statements += 1;
        return { command: 'SELECT', rowCount: 1, rows: await answer() };
      },
      release: () => undefined,
    }),
    end: async () => undefined,
  } as unknown as PostgresPool;
  return {
    db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }),
    statements: () => statements,
  };
}

const ROW = {
  pending: 2,
  oldest: new Date('2026-03-04T08:29:00Z'),
  due: 1,
  review: 0,
  refund: 3,
  outbox: JSON.stringify([
    { channel: 'sms', pending: 4, due: 4, oldest: '2026-03-04T08:20:00+00:00' },
  ]),
};

describe('the scrape snapshot', () => {
  it('reads once per 5 s of the app clock, whatever the number of scrapes', async () => {
    const clock = new FixedClock('2026-03-04T08:30:00Z');
    const fake = fakeDb(async () => [ROW]);
    const snapshot = new ScrapeSnapshot({ db: fake.db, clock, reconcileAfterMs: 20_000 });
    const [a, b] = await Promise.all([snapshot.current(), snapshot.current()]);
    expect(a).toBe(b);
    expect(a.figures).toEqual({
      payments: {
        pending: 2,
        needsReview: 0,
        needsRefund: 3,
        oldestPendingSeconds: 60,
        dueForCheck: 1,
      },
      outbox: {
        sms: { pending: 4, due: 4, oldestSeconds: 600 },
        email: { pending: 0, due: 0, oldestSeconds: 0 },
        push: { pending: 0, due: 0, oldestSeconds: 0 },
        whatsapp: { pending: 0, due: 0, oldestSeconds: 0 },
      },
    });
    clock.advance(4_999);
    await snapshot.current();
    expect(fake.statements()).toBe(1);
    clock.advance(1);
    await snapshot.current();
    expect(fake.statements()).toBe(2);
  });

  it('answers "no figures" in time when the database does not answer, or fails', async () => {
    const clock = new FixedClock('2026-03-04T08:30:00Z');
    const hanging = fakeDb(() => new Promise<unknown[]>(() => undefined));
    const started = performance.now();
    const silent = new ScrapeSnapshot({ db: hanging.db, clock, reconcileAfterMs: 0, waitMs: 50 });
    expect(await silent.current()).toEqual({ figures: null });
    expect(performance.now() - started).toBeLessThan(1000);
    const errors: unknown[] = [];
    const failing = fakeDb(() => Promise.reject(new Error('gone')));
    const broken = new ScrapeSnapshot({
      db: failing.db,
      clock,
      reconcileAfterMs: 0,
      onError: (err) => errors.push(err),
    });
    expect(await broken.current()).toEqual({ figures: null });
    expect(errors).toHaveLength(1);
  });
});
