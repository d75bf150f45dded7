import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/** Work that may wait on the database for as long as its statements take (migrations). */
const unwatched = new AsyncLocalStorage<true>();

/**
 * Runs `work` without the stall watch of ResilientPool: a migration's statement (an index
 * built on a large table) may rightly keep the database busy and silent for long.
 */
export function withoutStallWatch<T>(work: () => Promise<T>): Promise<T> {
  return unwatched.run(true, work);
}

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

/**
 * The link broke while a write's COMMIT (or a write outside a transaction) was on its way:
 * the database may have applied it or not. Routes answer 503 OUTCOME_UNKNOWN; the client
 * must read again rather than repeat it (a repeated Call next would call a second person).
 */
export class OutcomeUnknownError extends DatabaseUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OutcomeUnknownError';
  }
}

/** True when `err` (or an error it wraps) is a write whose outcome is unknown. */
export function isOutcomeUnknown(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (e instanceof OutcomeUnknownError) return true;
  }
  return false;
}

/** A statement whose success the database decides by itself: a COMMIT, or a lone write. */
function decidesWrite(sql: unknown, inTransaction: boolean): boolean {
  if (typeof sql !== 'string') return false;
  const head = sql.trimStart().slice(0, 8).toLowerCase();
  if (head.startsWith('commit')) return true;
  return !inTransaction && /^(insert|update|delete|merge)\b/.test(head);
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

/** Why the database was unavailable to a query (metrics: `qless_db_errors_total{kind}`). */
export type DatabaseErrorKind = 'connect' | 'stall' | 'timeout' | 'connection_lost';

/** Told of each wait for a connection and each failure to reach the database (metrics). */
export interface PoolObserver {
  acquired(waitSeconds: number): void;
  unavailable(kind: DatabaseErrorKind): void;
}

/** Connections of the pool now: open, idle, and requests waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * pg.Pool as Kysely sees it, with two differences:
 * - a connection whose query failed because the link broke (killed backend, read timeout on
 *   a frozen server) is destroyed on release instead of going back to the pool, so the next
 *   request gets a fresh connection and the app recovers by itself once the database is
 *   back. Such failures are rethrown as DatabaseUnavailableError;
 * - a stalled database fails fast: a wait for it (a pooled connection, a statement's answer)
 *   during which it answered nothing at all, to anyone, for `stallMs` is given up with a
 *   DatabaseUnavailableError (503 within about 2 s), instead of the
 *   connect and statement timeouts (5–11 s). A busy database keeps answering someone, so a
 *   burst that queues for connections is not mistaken for a stall.
 */
export class ResilientPool implements PostgresPool {
  /** When the database last answered anything (performance.now()). */
  private lastAnswer = performance.now();
  /** Metrics of the apps using this pool (tests may run several on one database). */
  readonly observers = new Set<PoolObserver>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly stallMs: number,
  ) {}

  /** Something came back from the server: it is not stalled. */
  private answered(): void {
    this.lastAnswer = performance.now();
  }

  /**
   * `work`, unless the database answers nothing at all for stallMs while it is awaited;
   * `abandoned` gets what comes back after that (a connection to give back).
   */
  private watch<T>(work: Promise<T>, what: string, abandoned: (late: T) => void): Promise<T> {
    if (unwatched.getStore()) return work;
    return new Promise<T>((resolve, reject) => {
      const started = performance.now();
      let gaveUp = false;
      let settled = false;
      let timer: NodeJS.Timeout;
      const left = () => Math.max(started, this.lastAnswer) + this.stallMs - performance.now();
      const check = () => {
        if (left() > 0) {
          timer = setTimeout(check, left());
          return;
        }
        // The bound passed, or this process was busy past it (a CPU-starved process runs its
        // timers before reading the answers that arrived meanwhile): read them first.
        setImmediate(giveUpUnlessAnswered);
      };
      const giveUpUnlessAnswered = () => {
        if (settled) return;
        if (left() > 0) {
          timer = setTimeout(check, left());
          return;
        }
        gaveUp = true;
        reject(
          new DatabaseUnavailableError(
            `The database answered nothing for ${this.stallMs} ms (${what})`,
          ),
        );
      };
      timer = setTimeout(check, this.stallMs);
      work.then(
        (value) => {
          if (gaveUp) return abandoned(value);
          settled = true;
          clearTimeout(timer);
          resolve(value);
        },
        (err: unknown) => {
          if (gaveUp) return;
          settled = true;
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  }

  stats(): PoolStats {
    const { totalCount, idleCount, waitingCount } = this.pool;
    return { total: totalCount, idle: idleCount, waiting: waitingCount };
  }

  private tell(kind: DatabaseErrorKind): void {
    for (const o of this.observers) o.unavailable(kind);
  }

  async connect(): Promise<PostgresPoolClient> {
    let client: pg.PoolClient;
    const asked = performance.now();
    try {
      client = await this.watch(this.pool.connect(), 'waiting for a connection', (late) =>
        late.release(),
      );
    } catch (err) {
      this.tell(err instanceof DatabaseUnavailableError ? 'stall' : 'connect');
      if (err instanceof DatabaseUnavailableError) throw err;
      throw new DatabaseUnavailableError(`Cannot reach the database: ${describeError(err)}`, {
        cause: err,
      });
    }
    const waited = (performance.now() - asked) / 1000;
    for (const o of this.observers) o.acquired(waited);
    let broken: Error | undefined;
    // A write whose outcome is unknown: the rollback Kysely tries next rethrows it.
    let unknown: OutcomeUnknownError | undefined;
    let inTransaction = false;
    const tell = (kind: DatabaseErrorKind) => this.tell(kind);
    // A connection reset or terminated while a request holds it emits 'error' on the client;
    // unheard, that exits the process. The pool listens only while idle.
    const lost = (err: Error) => {
      if (broken) return;
      broken = err;
      tell('connection_lost');
    };
    client.on('error', lost);
    const wrapped = {
      query: async (...args: unknown[]) => {
        // A connection given up on (a statement may still run on it) takes no more, not
        // even the rollback of its transaction: that would wait for the stall again.
        if (unknown) throw unknown;
        if (broken) {
          throw new DatabaseUnavailableError(`The connection was lost: ${describeError(broken)}`, {
            cause: broken,
          });
        }
        const sql = args[0];
        const decides = decidesWrite(sql, inTransaction);
        if (typeof sql === 'string') {
          const head = sql.trimStart().slice(0, 8).toLowerCase();
          if (head.startsWith('begin') || head.startsWith('start')) inTransaction = true;
          else if (head.startsWith('commit') || head.startsWith('rollback')) inTransaction = false;
        }
        try {
          const pending: unknown = (client.query as (...a: unknown[]) => unknown)(...args);
          // A cursor (Kysely's streams) is not awaited here: nothing to watch.
          if (!(pending instanceof Promise)) return pending;
          const answer = await this.watch(pending, 'a statement', () => undefined);
          this.answered();
          return answer;
        } catch (err) {
          if (err instanceof DatabaseUnavailableError) {
            broken = err;
            tell('stall');
            if (decides) unknown = new OutcomeUnknownError(err.message, { cause: err });
            throw unknown ?? err;
          }
          if (!isDatabaseUnavailable(err)) {
            // The server answered, with an error of the statement's own.
            this.answered();
            throw err;
          }
          // A statement timeout leaves the connection usable; anything else does not.
          const timedOut =
            (err as { code?: unknown }).code === '57014' ||
            (err instanceof Error && err.message.startsWith('Query read timeout'));
          if (!timedOut) broken ??= err as Error;
          tell(timedOut ? 'timeout' : 'connection_lost');
          const message = `The database did not answer: ${describeError(err)}`;
          if (decides && (err as { code?: unknown }).code !== '57014') {
            unknown = new OutcomeUnknownError(message, { cause: err });
            throw unknown;
          }
          throw new DatabaseUnavailableError(message, { cause: err });
        }
      },
      release() {
        client.removeListener('error', lost);
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
