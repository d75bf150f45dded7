import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, type Engine, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/** Both engines run every integration test. */
export const engines: Engine[] = ['pglite', 'postgres'];

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
