import { buildWeb } from './server';

/** The browser test files share one build of the web app, made (when stale) before any starts. */
export default function setup(): void {
  buildWeb();
}
