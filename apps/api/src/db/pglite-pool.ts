import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import {
  type DialectAdapter,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
} from 'kysely';
import { PGliteAdapter } from './many-rows.js';
import type { PoolObserver, PoolStats } from './pg-pool.js';

/**
 * PGlite is one database session. Kysely's PostgresDialect believes it has a pool, so we
 * hand it a "pool" of exactly one connection: `connect()` waits until the previous holder
 * released it. A transaction therefore owns the session from BEGIN to COMMIT and no other
 * request's statements can land inside it (see docs/decisions/001-pglite-single-session.md).
 */
export class PGliteSingleSessionPool implements PostgresPool {
  private tail: Promise<void> = Promise.resolve();
  /** Callers waiting for the session, and whether one holds it (metrics, at scrape). */
  private waiting = 0;
  private held = false;
  readonly observers = new Set<PoolObserver>();

  constructor(private readonly pg: PGlite) {}

  /** Runs `fn` while holding the session (used for LISTEN, which must not land in a transaction). */
  async exclusive<T>(fn: (pg: PGlite) => Promise<T>): Promise<T> {
    const client = await this.connect();
    try {
      return await fn(this.pg);
    } finally {
      client.release();
    }
  }

  async connect(): Promise<PostgresPoolClient> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => released);
    const asked = performance.now();
    this.waiting += 1;
    try {
      await previous;
    } finally {
      this.waiting -= 1;
    }
    this.held = true;
    const waited = (performance.now() - asked) / 1000;
    for (const o of this.observers) o.acquired(waited);
    let done = false;
    const free = () => {
      this.held = false;
    };
    const pg = this.pg;
    const client = {
      async query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
        // PGlite 0.5 reports the command tag like pg does (COMMIT of a failed transaction
        // reads ROLLBACK, which Kysely turns into an error).
        const result = (await pg.query<R>(sql, parameters as unknown[])) as Awaited<
          ReturnType<PGlite['query']>
        > & { command?: string; rows: R[] };
        return {
          command: (result.command ?? 'SELECT') as PostgresQueryResult<R>['command'],
          rowCount: result.affectedRows ?? result.rows.length,
          rows: result.rows,
        };
      },
      release() {
        if (done) return;
        done = true;
        free();
        release();
      },
    };
    return client as unknown as PostgresPoolClient;
  }

  /** The one session as a pool: total 1, idle unless held, and the queue waiting for it. */
  stats(): PoolStats {
    return { total: 1, idle: this.held ? 0 : 1, waiting: this.waiting };
  }

  async end(): Promise<void> {
    await this.tail;
  }
}

/** PostgreSQL's dialect on the one session, with an adapter that tells it is PGlite. */
export class PGliteDialect extends PostgresDialect {
  override createAdapter(): DialectAdapter {
    return new PGliteAdapter();
  }
}
