/**
 * A large read (a branch's open visits: 2,000 rows of 31 columns on a busy morning), read the
 * way that costs least on each engine (decision 129).
 *
 * On PGlite the rows come aggregated into one JSON array: its protocol parser copies and
 * decodes every field on its own, which cost more than the query itself (a JSON.parse does
 * the same work natively); under the queue bench that parse was half of the process's time.
 * On PostgreSQL the plain rows are cheaper: building the JSON costs the database server more
 * than node-postgres saves (Call next → board p50 140 against 110 ms, same run, interleaved).
 *
 * From JSON, columns are as the plain read gives them: numbers (int8 too: the app reads them
 * as numbers), dates as 'YYYY-MM-DD' strings, booleans, strings and null; the timestamps
 * named in `instants` become Dates (ISO 8601 with an offset, exact to the millisecond like
 * the drivers' own parsers). Numeric, bytea and timestamps inside JSON columns are not
 * converted (no caller reads one), and the rows come in no order (json_agg keeps none).
 * `query` must be built on `db` itself (the same transaction).
 */
import { type Kysely, PostgresAdapter, type SelectQueryBuilder, sql } from 'kysely';
import type { DB, Db } from './schema.js';

/** The adapter of the PGlite dialect: what tells a PGlite session (transactions keep it). */
export class PGliteAdapter extends PostgresAdapter {}

/** Whether `db` (or a transaction of it) is a PGlite session. */
export function isPGlite(db: Kysely<DB>): boolean {
  // getExecutor() is marked internal; the engines' test of manyRows fails if it changes.
  return db.getExecutor().adapter instanceof PGliteAdapter;
}

export async function manyRows<O, K extends keyof O & string>(
  db: Db,
  // biome-ignore lint/suspicious/noExplicitAny: any table set of the query builder
  query: SelectQueryBuilder<DB, any, O>,
  instants: readonly K[],
): Promise<O[]> {
  if (!isPGlite(db)) return query.execute();
  const row = await db
    .selectFrom(query.as('r'))
    .select(sql<string | unknown[] | null>`json_agg(r)`.as('rows'))
    .executeTakeFirstOrThrow();
  const parsed = typeof row.rows === 'string' ? (JSON.parse(row.rows) as unknown[]) : row.rows;
  const rows = (parsed ?? []) as Record<string, unknown>[];
  for (const r of rows) {
    for (const column of instants) {
      const value = r[column];
      if (typeof value === 'string') r[column] = new Date(value);
    }
  }
  return rows as O[];
}
