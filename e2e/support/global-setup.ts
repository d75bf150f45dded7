import { requireChromium, requirePostgres } from '../../apps/api/test/support/preflight';
import { TEST_CHROMIUM } from './chromium';
import { buildServer, buildWeb } from './server';

/**
 * The browser test files share one build of the web app and one bundle of the API, made
 * (when stale) before any starts. They need Chromium and the machine's PostgreSQL (each
 * file's server gets a database of its own there): a missing one is said in one line.
 */
export default async function setup(): Promise<void> {
  requireChromium(TEST_CHROMIUM);
  await requirePostgres();
  buildWeb();
  await buildServer();
}
