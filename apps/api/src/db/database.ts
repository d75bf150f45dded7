import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { makePrivate } from './data-dir.js';
import {
  DatabaseUnavailableError,
  describeError,
  type PoolObserver,
  type PoolStats,
  ResilientPool,
} from './pg-pool.js';
import { PGliteDialect, PGliteSingleSessionPool } from './pglite-pool.js';
import type { DB } from './schema.js';

const DATE_OID = 1082;
const INT8_OID = 20;

export type Engine = 'postgres' | 'pglite';

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  /**
   * Subscribes to a NOTIFY channel. On PostgreSQL a dedicated connection listens, so a
   * notification sent by any process reaches every process; on PGlite it is in process.
   * An empty payload means "you may have missed notifications": re-read everything.
   * `onLost` is told when the listening connection dropped (PostgreSQL only): until the
   * empty payload that follows the reconnect, notifications are being missed.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onLost?: () => void,
  ): Promise<() => Promise<void>>;
  ping(): Promise<boolean>;
  /** The connection pool now (PGlite: its one session and the queue for it), for metrics. */
  poolStats?(): PoolStats;
  /** Tells `observer` of connection waits and failures until the returned function is called. */
  observePool?(observer: PoolObserver): () => void;
  close(): Promise<void>;
  /** PGlite only: the data folder as a tarball, which `loadDataDir` starts from (tests' template). */
  dumpDataDir?(): Promise<Blob>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  /** Folder of the embedded database; null keeps PGlite in memory (tests). */
  dataDir: string | null;
  /** PostgreSQL only; each falls back to DEFAULT_TIMEOUTS. */
  timeouts?: Partial<DatabaseTimeouts>;
  /** Told about repairs made at start (file modes); the server prints them. */
  onNotice?: (message: string) => void;
  /**
   * PGlite in memory only: start from this dumped data folder (`dumpDataDir`) instead of an
   * empty cluster. Tests load one migrated template per run rather than migrating per file.
   */
  loadDataDir?: Blob;
}

export interface DatabaseTimeouts {
  /** Opening a connection, or waiting for a free one in the pool. */
  connectMs: number;
  /** One statement; the client gives up a second later if the server cannot even say so. */
  statementMs: number;
  /** A transaction left open and idle (a stuck request) is ended by the server. */
  idleInTransactionMs: number;
  /**
   * A wait for the database (a connection, an answer) during which it answered nothing at
   * all for this long is given up: a stalled database gives 503s in about this time.
   */
  stallMs: number;
}

export const DEFAULT_TIMEOUTS: DatabaseTimeouts = {
  connectMs: 5000,
  statementMs: 10_000,
  idleInTransactionMs: 30_000,
  stallMs: 1500,
};

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, { ...DEFAULT_TIMEOUTS, ...options.timeouts })
    : openPGlite(options.dataDir, options.onNotice ?? (() => undefined), options.loadDataDir);
}

async function openPostgres(
  connectionString: string,
  timeouts: DatabaseTimeouts,
): Promise<Database> {
  // Dates stay "yyyy-MM-dd" strings: a JS Date at midnight would shift with the zone.
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === DATE_OID) return (v: string) => v;
      if (oid === INT8_OID) return (v: string) => Number(v);
      return pg.types.getTypeParser(oid, format);
    },
  };
  const link = { connectionString, connectionTimeoutMillis: timeouts.connectMs, keepAlive: true };
  const pool = new pg.Pool({
    ...link,
    types,
    max: 10,
    statement_timeout: timeouts.statementMs,
    // Bounds a read from a server that froze (it cannot enforce its own statement_timeout).
    query_timeout: timeouts.statementMs + 1000,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  // Every client, from its first connection on, has an 'error' listener, whatever it is doing:
  // the pool listens while a client is idle and the request holding one listens while it is
  // checked out (pg-pool.ts), but a connection terminated in a moment between the two still
  // exited the process about one run in five under load (database-drops-process.test.ts).
  // The broken client is dropped by whoever holds it next: its next query fails.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  // Fail now, naming the server, rather than on the first query with a buried cause.
  try {
    (await pool.connect()).release();
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(
      `Cannot reach the database at ${serverOf(connectionString)}: ${describeError(err)}`,
      { cause: err },
    );
  }
  const resilient = new ResilientPool(pool, timeouts.stallMs);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: resilient }) });
  const listeners = new Set<pg.Client>();
  return {
    db,
    engine: 'postgres',
    async listen(channel, onPayload, onLost) {
      if (!CHANNEL.test(channel)) throw new Error(`bad channel name ${channel}`);
      let stopped = false;
      let client: pg.Client | null = null;
      let retry: NodeJS.Timeout | null = null;
      // A dedicated connection; when it drops (database restart, network), reconnect with
      // backoff and emit an empty payload so subscribers re-read what they may have missed.
      const connect = async (attempt: number): Promise<void> => {
        const c = new pg.Client(link);
        const lost = () => {
          if (stopped || client !== c) return;
          client = null;
          listeners.delete(c);
          c.end().catch(() => undefined);
          onLost?.();
          schedule(0);
        };
        c.on('error', lost);
        c.on('end', lost);
        c.on('notification', (n) => {
          if (n.channel === channel) onPayload(n.payload ?? '');
        });
        try {
          await c.connect();
          await c.query(`LISTEN ${channel}`);
        } catch (err) {
          c.end().catch(() => undefined);
          if (attempt === 0) throw err;
          return schedule(attempt);
        }
        if (stopped) {
          await c.end().catch(() => undefined);
          return;
        }
        client = c;
        listeners.add(c);
        if (attempt > 0) onPayload('');
      };
      const schedule = (attempt: number) => {
        const delay = Math.min(30_000, 250 * 2 ** attempt);
        retry = setTimeout(() => void connect(attempt + 1), delay);
        retry.unref();
      };
      await connect(0);
      return async () => {
        stopped = true;
        if (retry) clearTimeout(retry);
        if (client) {
          listeners.delete(client);
          await client.end().catch(() => undefined);
        }
      };
    },
    ping: () => ping(db),
    poolStats: () => resilient.stats(),
    observePool: (observer) => observeWith(resilient.observers, observer),
    async close() {
      await Promise.all([...listeners].map((c) => c.end().catch(() => undefined)));
      await db.destroy();
    },
  };
}

/** host:port of a connection string, never its password. */
function serverOf(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname || 'localhost'}:${url.port || '5432'}`;
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

async function openPGlite(
  dataDir: string | null,
  notice: (message: string) => void,
  loadDataDir: Blob | undefined,
): Promise<Database> {
  const dir = dataDir === null ? null : path.join(dataDir, 'pglite');
  if (loadDataDir && dir) throw new Error('loadDataDir is for a PGlite kept in memory');
  if (dataDir && dir) {
    const repaired = await makePrivate(dataDir, dir);
    if (repaired > 0) {
      notice(
        `Made ${repaired} file(s) and folder(s) under ${dataDir} private to this user (folders 0700, files 0600): other users could read or write them`,
      );
    }
  }
  const pglite = await PGlite.create({
    ...(dir ? { dataDir: dir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    parsers: { [DATE_OID]: (v: string) => v, [INT8_OID]: (v: string) => Number(v) },
  });
  // PGlite has just written its files 0666: tighten them before any data goes in.
  if (dataDir && dir) await makePrivate(dataDir, dir);
  const pool = new PGliteSingleSessionPool(pglite);
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pool }) });
  return {
    db,
    engine: 'pglite',
    async listen(channel, onPayload) {
      if (!CHANNEL.test(channel)) throw new Error(`bad channel name ${channel}`);
      const unsubscribe = await pool.exclusive((p) => p.listen(channel, onPayload));
      return () => pool.exclusive(() => unsubscribe());
    },
    ping: () => ping(db),
    poolStats: () => pool.stats(),
    observePool: (observer) => observeWith(pool.observers, observer),
    dumpDataDir: () => pool.exclusive(() => pglite.dumpDataDir('none')),
    async close() {
      await db.destroy();
      await pglite.close();
      // Files PGlite created while running are 0666 again; leave the folder tidy.
      if (dataDir && dir) await makePrivate(dataDir, dir);
    },
  };
}

function observeWith(observers: Set<PoolObserver>, observer: PoolObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

async function ping(db: Kysely<DB>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
