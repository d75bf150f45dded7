import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { bundleApi } from '../../build/bundle.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { pgliteTemplate, removePgliteTemplate } from './pglite-template.js';
import { requirePostgres } from './preflight.js';
import { adminQuery, adminUrl } from './test-db.js';

/**
 * Migrates once per run, for the engine of the project that runs this setup: a PostgreSQL
 * template database, or a PGlite data folder dumped to a file. Each test file then copies
 * it in a fraction of the time a migration takes (decision 016).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The files that start the server as a process run its bundle (support/server-process.ts).
  await bundleApi({ onlyIfStale: true });
  const engine = project.config.provide?.engine ?? 'postgres';
  if (engine === 'pglite') {
    project.provide('pgliteTemplate', (await pgliteTemplate()).dump);
    return removePgliteTemplate;
  }
  await requirePostgres();
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
  project.provide('postgresTemplate', name);
  return () => adminQuery(`drop database if exists ${name} with (force)`);
}
