/**
 * The API as plain JavaScript: `src/server.ts` → `dist/server.mjs` and the command line
 * (`src/cli/qless.ts`) → `dist/cli.mjs`, for production (`npm run build -w @qless/api`) and
 * for the browser tests' servers (e2e/support/server.ts), one way for both.
 *
 * The API's sources, the contract's and the npm packages it runs on are bundled, but for a
 * few that load files of their own (STAY_PACKAGES), which stay imports: the bundle runs on
 * the `dependencies` that `npm ci --omit=dev` installs. The files sit one
 * folder below apps/api, as src/server.ts does, so the paths config.ts resolves from its
 * own folder (assets/media, ../web/dist) stay the same.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const API = resolve(import.meta.dirname, '..');
const ROOT = resolve(API, '../..');
export const DIST = join(API, 'dist');
export const SERVER_BUNDLE = join(DIST, 'server.mjs');
export const CLI_BUNDLE = join(DIST, 'cli.mjs');

/** The newest change under `dir`, a folder's own time included (a file deleted or renamed). */
function newestMtime(dir: string): number {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    const time = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

/**
 * Packages that stay imports, resolved in node_modules at run time: native addons (argon2,
 * sharp), PGlite (its WASM and data files sit beside its code) and pg's optional native
 * binding. (pino, fastify's logger, is bundled: it would load files of its own only for log
 * transports, which the API does not use.)
 */
const STAY_PACKAGES = ['@electric-sql/pglite', '@node-rs/argon2', 'sharp', 'pg-native'];

/** When the packages were last installed (npm writes node_modules/.package-lock.json). */
function installedAt(): number {
  const installed = join(ROOT, 'node_modules/.package-lock.json');
  return statSync(existsSync(installed) ? installed : join(ROOT, 'package-lock.json')).mtimeMs;
}

/** Whether both bundles are newer than every source they are made of. */
export function bundleIsFresh(): boolean {
  const sources = Math.max(
    newestMtime(join(API, 'src')),
    newestMtime(join(ROOT, 'packages/contract/src')),
    statSync(join(API, 'package.json')).mtimeMs,
    // The packages are bundled too: an install that changed one makes the bundles stale.
    installedAt(),
    statSync(import.meta.filename).mtimeMs,
  );
  return [SERVER_BUNDLE, CLI_BUNDLE].every(
    (file) => existsSync(file) && statSync(file).mtimeMs > sources,
  );
}

/**
 * Bundles both entries (always, or with `onlyIfStale` unless they are newer than every
 * source). Options let a test bundle another checkout's sources (the previous release).
 */
export async function bundleApi(
  options: { onlyIfStale?: boolean; apiDir?: string; outDir?: string; entries?: string[] } = {},
): Promise<{ server: string; cli: string }> {
  const apiDir = options.apiDir ?? API;
  const outDir = options.outDir ?? DIST;
  const out = { server: join(outDir, 'server.mjs'), cli: join(outDir, 'cli.mjs') };
  if (options.onlyIfStale && apiDir === API && outDir === DIST && bundleIsFresh()) return out;
  const entries = options.entries ?? ['src/server.ts', 'src/cli/qless.ts'];
  const { outputFiles } = await build({
    write: false,
    absWorkingDir: apiDir,
    entryPoints: entries.map((entry) => ({
      in: entry,
      out: entry.endsWith('server.ts') ? 'server' : 'cli',
    })),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // Every package but those that load files beside their own code is bundled too: Node
    // then reads one file, not some 900 modules resolved one by one, and a start costs about
    // 1.0 CPU-s, not 1.4 (decision 145). Packages bundled as CommonJS call `require` for
    // Node's built-ins and their optional extras: the banner gives them one…
    external: STAY_PACKAGES,
    // …and `__dirname`/`__filename` for those that name their own files (ioredis's friendly
    // stacks): the bundle's, as for any module of it.
    banner: {
      js: [
        "import { createRequire as qlessCreateRequire } from 'node:module';",
        "import { dirname as qlessDirname } from 'node:path';",
        "import { fileURLToPath as qlessFileURLToPath } from 'node:url';",
        'const require = qlessCreateRequire(import.meta.url);',
        'const __filename = qlessFileURLToPath(import.meta.url);',
        'const __dirname = qlessDirname(__filename);',
      ].join('\n'),
    },
  });
  // Written aside, then renamed: a server starting meanwhile reads the old file or the new one.
  mkdirSync(outDir, { recursive: true });
  for (const file of outputFiles) {
    const aside = `${file.path}.${process.pid}.tmp`;
    writeFileSync(aside, file.contents);
    renameSync(aside, file.path);
  }
  return out;
}

// `tsx build/bundle.ts`: the production build.
if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const started = performance.now();
  const { server, cli } = await bundleApi();
  const ms = Math.round(performance.now() - started);
  console.log(`API bundled in ${ms} ms: ${server}, ${cli}`);
}
