import type { TestProject } from 'vitest/node';
import { pgliteTemplate, removePgliteTemplate } from '../../apps/api/test/support/pglite-template';
import {
  dropPostgresTemplate,
  postgresTemplate,
} from '../../apps/api/test/support/postgres-template';
import { requireChromium, requirePostgres } from '../../apps/api/test/support/preflight';
import { TEST_CHROMIUM } from './chromium';
import { buildServer, buildWeb } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data folder (`<DATA_DIR>/pglite`), closed: a PGlite server's start. */
    pgliteDataTemplate: string;
  }
}

/**
 * The browser test files share one build of the web app and one bundle of the API, made
 * (when stale) before any starts, one migrated PGlite data folder that each server on the
 * embedded database starts from, and the migrated PostgreSQL template that each server's
 * database, and each file's own, is copied from (e2e/support/server.ts, test-db.ts). They need Chromium and the
 * machine's PostgreSQL (each file's server gets a database of its own there): a missing one
 * is said in one line.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  requireChromium(TEST_CHROMIUM);
  await requirePostgres();
  buildWeb();
  await buildServer();
  project.provide('pgliteDataTemplate', (await pgliteTemplate()).dataDir);
  project.provide('postgresTemplate', await postgresTemplate());
  return async () => {
    await removePgliteTemplate();
    await dropPostgresTemplate();
  };
}
