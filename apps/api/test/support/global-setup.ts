import type { TestProject } from 'vitest/node';
import { bundleApi } from '../../build/bundle.js';
import { pgliteTemplate, removePgliteTemplate } from './pglite-template.js';
import { dropPostgresTemplate, postgresTemplate } from './postgres-template.js';
import { requirePostgres } from './preflight.js';

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
  project.provide('postgresTemplate', await postgresTemplate());
  return dropPostgresTemplate;
}
