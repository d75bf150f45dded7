import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { adminQuery, adminUrl, dropRunDatabasesLater } from './run-databases.js';

const KEY = Symbol.for('qless.test.postgresTemplate');
type Holder = { [KEY]?: Promise<string> };

/**
 * The run's migrated PostgreSQL template database, made by whichever global setup asks first
 * (the API projects or the browser files) and shared through the main process. Each API file
 * copies it (`CREATE DATABASE … TEMPLATE`), and so does each browser file's server and own
 * database: they migrated a fresh database each before (decision 117).
 */
export function postgresTemplate(): Promise<string> {
  const holder = globalThis as Holder;
  holder[KEY] ??= (async () => {
    const name = `qless_template_${randomBytes(6).toString('hex')}`;
    await adminQuery(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
    try {
      await migrateToLatest(database.db);
    } finally {
      // A template copies only while nobody is connected to it.
      await database.close();
    }
    return name;
  })();
  return holder[KEY];
}

/**
 * Teardown: the databases the run's files made from the template, then the template, are
 * dropped by a detached process (either project's teardown; the second finds nothing).
 */
export async function dropPostgresTemplate(): Promise<void> {
  const holder = globalThis as Holder;
  const made = holder[KEY];
  if (!made) return;
  delete holder[KEY];
  const name = await made.catch(() => null);
  if (!name) return;
  dropRunDatabasesLater(name);
}
