import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/**
 * The database cannot be reached or stopped answering (refused, timed out, connection
 * killed, server shutting down). Routes answer 503 DATABASE_UNAVAILABLE for it: the request
 * was fine and may be retried once the database is back.
 */
export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

// pg reports these without a code; its messages are the only stable mark.
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
];

/**
 * SQLSTATE classes meaning "the link is gone or the server refuses work for now":
 * 08 connection exception, 57P01-03 shutdown / cannot connect now, 57014 query canceled
 * (our statement_timeout), 53300 too many connections.
 */
function isUnavailableState(code: string): boolean {
  return code.startsWith('08') || ['57P01', '57P02', '57P03', '57014', '53300'].includes(code);
}

/** True when `err` (or an error it wraps) means the database is away, not that the query was wrong. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (e instanceof DatabaseUnavailableError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || isUnavailableState(code))) {
      return true;
    }
    if (PG_CONNECTION_MESSAGES.some((m) => e instanceof Error && e.message.startsWith(m))) {
      return true;
    }
  }
  return false;
}

/**
 * pg.Pool as Kysely sees it, with one difference: a connection whose query failed because
 * the link broke (killed backend, read timeout on a frozen server) is destroyed on release
 * instead of going back to the pool, so the next request gets a fresh connection and the
 * app recovers by itself once the database is back. Such failures are rethrown as
 * DatabaseUnavailableError.
 */
export class ResilientPool implements PostgresPool {
  constructor(private readonly pool: pg.Pool) {}

  async connect(): Promise<PostgresPoolClient> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw new DatabaseUnavailableError(`Cannot reach the database: ${describeError(err)}`, {
        cause: err,
      });
    }
    let broken: Error | undefined;
    const wrapped = {
      async query(...args: unknown[]) {
        try {
          return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
        } catch (err) {
          if (!isDatabaseUnavailable(err)) throw err;
          // A statement timeout leaves the connection usable; anything else does not.
          if ((err as { code?: unknown }).code !== '57014') broken = err as Error;
          throw new DatabaseUnavailableError(`The database did not answer: ${describeError(err)}`, {
            cause: err,
          });
        }
      },
      release() {
        client.release(broken);
      },
    };
    return wrapped as unknown as PostgresPoolClient;
  }

  async end(): Promise<void> {
    await this.pool.end();
  }
}

/** One line naming the cause, e.g. "connect ECONNREFUSED 127.0.0.1:5499". */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // AggregateError (IPv4 and IPv6 both refused) has an empty message of its own.
  const inner = err instanceof AggregateError ? err.errors[0] : undefined;
  const message = err.message || (inner instanceof Error ? inner.message : '') || err.name;
  const cause = err.cause instanceof Error ? err.cause.message : '';
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}
