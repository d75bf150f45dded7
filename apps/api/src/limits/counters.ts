import { sql } from 'kysely';
import type { Db } from '../db/schema.js';

export interface CounterHit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  ttlMs: number;
}

/** Old windows are dropped now and then by whichever process happens to count. */
const PRUNE_EVERY_HITS = 1000;
/** Longer than the longest window a limit may have (a day), so no live window is dropped. */
const KEEP_MS = 2 * 24 * 60 * 60_000;
let hits = 0;

/**
 * Counts one hit on `key` in the fixed window of `windowMs` that contains `now`. One upsert,
 * so every process on the database counts into the same row and none can overshoot.
 * `lazyCommit` is for a statement of its own only (not inside a transaction, whose whole
 * commit it would make lazy).
 */
export async function hitCounter(
  db: Db,
  key: string,
  windowMs: number,
  now: Date,
  options: { lazyCommit?: boolean } = {},
): Promise<CounterHit> {
  hits += 1;
  if (hits % PRUNE_EVERY_HITS === 0) {
    // Housekeeping only: a failed prune is retried at the next round.
    pruneCounters(db, new Date(now.getTime() - KEEP_MS)).catch(() => {});
  }
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  if (options.lazyCommit) {
    if (db.isTransaction) throw new Error('rate counter: a lazy commit is for a statement alone');
    // The counter's commit does not wait for its WAL flush (synchronous_commit off for this
    // statement's own transaction only): a crash may forget the last few hundred milliseconds
    // of hits, and 200 requests at once no longer queue on 200 flushes.
    const { rows } = await sql<{ count: number }>`
      insert into rate_counters (key, window_start, count)
      select ${key}, ${new Date(start)}, 1
      from (select set_config('synchronous_commit', 'off', true)) as lazy
      on conflict (key, window_start) do update set count = rate_counters.count + 1
      returning count`.execute(db);
    const count = rows[0]?.count;
    if (count === undefined) throw new Error('rate counter: no row returned');
    return { count, ttlMs: start + windowMs - now.getTime() };
  }
  const row = await db
    .insertInto('rate_counters')
    .values({ key, window_start: new Date(start), count: 1 })
    .onConflict((oc) =>
      oc.columns(['key', 'window_start']).doUpdateSet({ count: sql`rate_counters.count + 1` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return { count: row.count, ttlMs: start + windowMs - now.getTime() };
}

/** The count so far in the current window, without counting. */
export async function readCounter(
  db: Db,
  key: string,
  windowMs: number,
  now: Date,
): Promise<CounterHit> {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  const row = await db
    .selectFrom('rate_counters')
    .select('count')
    .where('key', '=', key)
    .where('window_start', '=', new Date(start))
    .executeTakeFirst();
  return { count: row?.count ?? 0, ttlMs: start + windowMs - now.getTime() };
}

/** Drops windows that ended before `before`. */
export async function pruneCounters(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('rate_counters').where('window_start', '<', before).execute();
}

/**
 * Takes back one hit counted in the window that contained `at` (a reservation that turned
 * out not to count, e.g. a sign-in that succeeded).
 */
export async function releaseCounter(
  db: Db,
  key: string,
  windowMs: number,
  at: Date,
): Promise<void> {
  const start = Math.floor(at.getTime() / windowMs) * windowMs;
  await db
    .updateTable('rate_counters')
    .set({ count: sql`greatest(rate_counters.count - 1, 0)` })
    .where('key', '=', key)
    .where('window_start', '=', new Date(start))
    .execute();
}
