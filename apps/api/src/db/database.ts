import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGliteSingleSessionPool } from './pglite-pool.js';
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
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  /** Folder of the embedded database; null keeps PGlite in memory (tests). */
  dataDir: string | null;
}

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : openPGlite(options.dataDir === null ? null : path.join(options.dataDir, 'pglite'));
}

async function openPostgres(connectionString: string): Promise<Database> {
  // Dates stay "yyyy-MM-dd" strings: a JS Date at midnight would shift with the zone.
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === DATE_OID) return (v: string) => v;
      if (oid === INT8_OID) return (v: string) => Number(v);
      return pg.types.getTypeParser(oid, format);
    },
  };
  const pool = new pg.Pool({ connectionString, types, max: 10 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const listeners = new Set<pg.Client>();
  return {
    db,
    engine: 'postgres',
    async listen(channel, onPayload) {
      if (!CHANNEL.test(channel)) throw new Error(`bad channel name ${channel}`);
      let stopped = false;
      let client: pg.Client | null = null;
      let retry: NodeJS.Timeout | null = null;
      // A dedicated connection; when it drops (database restart, network), reconnect with
      // backoff and emit an empty payload so subscribers re-read what they may have missed.
      const connect = async (attempt: number): Promise<void> => {
        const c = new pg.Client({ connectionString });
        const lost = () => {
          if (stopped || client !== c) return;
          client = null;
          listeners.delete(c);
          c.end().catch(() => undefined);
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
    async close() {
      await Promise.all([...listeners].map((c) => c.end().catch(() => undefined)));
      await db.destroy();
    },
  };
}

async function openPGlite(dir: string | null): Promise<Database> {
  if (dir) await mkdir(dir, { recursive: true });
  const pglite = await PGlite.create({
    ...(dir ? { dataDir: dir } : {}),
    parsers: { [DATE_OID]: (v: string) => v, [INT8_OID]: (v: string) => Number(v) },
  });
  const pool = new PGliteSingleSessionPool(pglite);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    engine: 'pglite',
    async listen(channel, onPayload) {
      if (!CHANNEL.test(channel)) throw new Error(`bad channel name ${channel}`);
      const unsubscribe = await pool.exclusive((p) => p.listen(channel, onPayload));
      return () => pool.exclusive(() => unsubscribe());
    },
    ping: () => ping(db),
    async close() {
      await db.destroy();
      await pglite.close();
    },
  };
}

async function ping(db: Kysely<DB>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
