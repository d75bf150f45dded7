import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { runTool } from '../../src/backup/tools.js';
import { type Database, type Engine, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { adminQuery, adminUrl } from './run-databases.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The engine this run of the file uses (the Vitest project `api` or `api-pglite`). */
    engine: Engine;
    /** A migrated PostgreSQL database made once per run; each file copies it. */
    postgresTemplate: string;
    /** A migrated PGlite data folder dumped once per run (a file path); each file loads it. */
    pgliteTemplate: string;
  }
}

/**
 * The engine of this file's run: one per Vitest project (see vitest.config.ts and decision
 * 016). A file that the engines decide differently is in both projects; every other file
 * runs on PostgreSQL only, unless QLESS_TEST_ENGINES=both puts every file in both.
 */
export const engines: Engine[] = [projectEngine()];

function projectEngine(): Engine {
  try {
    return inject('engine') ?? 'postgres';
  } catch {
    // Outside a Vitest API project (a browser test's own database): PostgreSQL.
    return 'postgres';
  }
}

function provided<K extends 'postgresTemplate' | 'pgliteTemplate'>(key: K): string | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

export interface TestDatabase {
  database: Database;
  /** Connection string of the fresh PostgreSQL database (null on PGlite). */
  url: string | null;
  cleanup(): Promise<void>;
}

let pgliteTemplate: Promise<Blob> | null = null;

/**
 * Opens a PGlite kept on disk in `dataDir` (as `npm start` does), migrated: the run's template
 * unpacked into its `pglite/` folder when the global setup made one, which costs a fraction of
 * the 4 CPU-s a migration of a fresh folder takes.
 */
export async function openMigratedPgliteOnDisk(dataDir: string): Promise<Database> {
  const dump = provided('pgliteTemplate');
  if (dump) {
    await mkdir(join(dataDir, 'pglite'), { recursive: true, mode: 0o700 });
    await runTool('tar', ['--extract', '--file', dump, '--directory', join(dataDir, 'pglite')]);
  }
  const database = await openDatabase({ databaseUrl: null, dataDir });
  await migrateToLatest(database.db);
  return database;
}

/**
 * A fresh, migrated database: a copy of the run's template when the global setup made one
 * (PostgreSQL `CREATE DATABASE … TEMPLATE`, PGlite `loadDataDir`), else created and migrated.
 */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const dump = provided('pgliteTemplate');
    if (dump) pgliteTemplate ??= readFile(dump).then((bytes) => new Blob([bytes]));
    const database = await openDatabase({
      databaseUrl: null,
      dataDir: null,
      ...(pgliteTemplate ? { loadDataDir: await pgliteTemplate } : {}),
    });
    if (!pgliteTemplate) await migrateToLatest(database.db);
    return { database, url: null, cleanup: () => database.close() };
  }
  const name = runDatabaseName('test');
  const template = provided('postgresTemplate');
  await adminQuery(`create database ${name}${template ? ` template ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  if (!template) await migrateToLatest(database.db);
  return {
    database,
    url: url.toString(),
    async cleanup() {
      await database.close();
      await dropTestDatabase(name);
    },
  };
}

/**
 * The run's id: the hex of its template database's name (`qless_template_<hex>`, made once per
 * run by the global setup), or null outside a Vitest run (the Lighthouse bench).
 */
function runId(): string | null {
  return /^qless_template_([0-9a-f]+)$/.exec(provided('postgresTemplate') ?? '')?.[1] ?? null;
}

/** A fresh database's name, `qless_<kind>_<run>_<random>` in a run (`dropRunDatabases`). */
export function runDatabaseName(kind: 'test' | 'e2e'): string {
  const run = runId();
  return `qless_${kind}_${run ? `${run}_` : ''}${randomBytes(6).toString('hex')}`;
}

/**
 * A test's database is done with. In a run it stays until the run's teardown drops the run's
 * databases together (`dropRunDatabases`): each DROP DATABASE makes PostgreSQL take a
 * checkpoint and wait for it, which wrote every other file's dirty pages too — 149 of them in
 * one run of the suite, 82 s of waiting in the files' clean-up and 1.4 GB written (decision
 * 146). Outside a run it is dropped at once.
 */
export async function dropTestDatabase(name: string): Promise<void> {
  if (runId() && name.includes(`_${runId()}_`)) return;
  await adminQuery(`drop database if exists ${name} with (force)`);
}
