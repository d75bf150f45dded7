import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, type Engine, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/**
 * Both engines run every integration test. QLESS_TEST_ENGINES (comma-separated) narrows
 * that: `npm run mutation` runs on PostgreSQL alone, as PGlite takes seconds to start.
 */
export const engines: Engine[] = selectEngines(process.env.QLESS_TEST_ENGINES);

function selectEngines(list: string | undefined): Engine[] {
  const all: Engine[] = ['pglite', 'postgres'];
  if (!list) return all;
  const chosen = all.filter((engine) => list.split(',').includes(engine));
  if (chosen.length === 0) throw new Error(`QLESS_TEST_ENGINES names no engine: ${list}`);
  return chosen;
}

/** The machine's PostgreSQL (CI has one); each test file gets a fresh database in it. */
const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  database: Database;
  /** Connection string of the fresh PostgreSQL database (null on PGlite). */
  url: string | null;
  cleanup(): Promise<void>;
}

export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const database = await openDatabase({ databaseUrl: null, dataDir: null });
    await migrateToLatest(database.db);
    return { database, url: null, cleanup: () => database.close() };
  }
  const name = `qless_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  await migrateToLatest(database.db);
  return {
    database,
    url: url.toString(),
    async cleanup() {
      await database.close();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
