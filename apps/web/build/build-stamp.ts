import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * How a build was made, written beside it: the tests' freshness check (e2e/support/server.ts)
 * reuses a build only when it is a production build, not merely a recent one.
 */
export interface BuildStamp {
  nodeEnv: string | undefined;
  mode: string;
  production: boolean;
}

/** Where each build keeps its stamp: never under a served path (`.vite/` is not served). */
export const CLIENT_STAMP = 'dist/.vite/qless-build.json';
export const SSR_STAMP = 'dist-ssr/qless-build.json';

/**
 * Refuses a build that would bundle React's development build (a shell's `NODE_ENV=test` or
 * `development` reaches Vite, which then bundles it whatever the mode: issue 29), and stamps
 * the ones it allows. `npm run build` sets NODE_ENV=production itself.
 */
export function buildStamp(file: string): Plugin {
  let stamp: BuildStamp = { nodeEnv: undefined, mode: '', production: false };
  let root = '';
  return {
    name: 'qless-build-stamp',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      stamp = {
        nodeEnv: process.env.NODE_ENV,
        mode: config.mode,
        production: config.isProduction && config.mode === 'production',
      };
      if (!stamp.production) {
        throw new Error(
          `The web app is built for production only (NODE_ENV=${stamp.nodeEnv ?? ''}, mode ${stamp.mode}): run npm run build, which sets NODE_ENV=production.`,
        );
      }
    },
    async closeBundle() {
      const path = join(root, file);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, `${JSON.stringify(stamp)}\n`);
    },
  };
}
