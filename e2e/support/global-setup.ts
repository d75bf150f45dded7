import type { TestProject } from 'vitest/node';
import { pgliteTemplate, removePgliteTemplate } from '../../apps/api/test/support/pglite-template';
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
 * (when stale) before any starts, and one migrated PGlite data folder that each server on
 * the embedded database starts from (e2e/support/server.ts). They need Chromium and the
 * machine's PostgreSQL (each file's server gets a database of its own there): a missing one
 * is said in one line.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  requireChromium(TEST_CHROMIUM);
  await requirePostgres();
  buildWeb();
  await buildServer();
  project.provide('pgliteDataTemplate', (await pgliteTemplate()).dataDir);
  return removePgliteTemplate;
}
