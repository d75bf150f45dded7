import { buildServer, buildWeb } from './server';

/**
 * The browser test files share one build of the web app and one bundle of the API, made
 * (when stale) before any starts.
 */
export default async function setup(): Promise<void> {
  buildWeb();
  await buildServer();
}
