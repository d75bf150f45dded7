/**
 * The API as plain JavaScript: `src/server.ts` → `dist/server.mjs` and the command line
 * (`src/cli/qless.ts`) → `dist/cli.mjs`, for production (`npm run build -w @qless/api`) and
 * for the browser tests' servers (e2e/support/server.ts), one way for both.
 *
 * The API's sources and the contract's are bundled; npm packages stay imports, so the
 * bundle runs on the `dependencies` that `npm ci --omit=dev` installs. The files sit one
 * folder below apps/api, as src/server.ts does, so the paths config.ts resolves from its
 * own folder (assets/media, ../web/dist) stay the same.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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

/** Whether both bundles are newer than every source they are made of. */
export function bundleIsFresh(): boolean {
  const sources = Math.max(
    newestMtime(join(API, 'src')),
    newestMtime(join(ROOT, 'packages/contract/src')),
    statSync(join(API, 'package.json')).mtimeMs,
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
  const pkg = JSON.parse(readFileSync(join(apiDir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
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
    external: Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@qless/')),
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
