import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * PGlite is one database session. Kysely's PostgresDialect believes it has a pool, so we
 * hand it a "pool" of exactly one connection: `connect()` waits until the previous holder
 * released it. A transaction therefore owns the session from BEGIN to COMMIT and no other
 * request's statements can land inside it (see docs/decisions/001-pglite-single-session.md).
 */
export class PGliteSingleSessionPool implements PostgresPool {
  private tail: Promise<void> = Promise.resolve();

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
    await previous;
    let done = false;
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
        release();
      },
    };
    return client as unknown as PostgresPoolClient;
  }

  async end(): Promise<void> {
    await this.tail;
  }
}
