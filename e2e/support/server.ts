import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { bundleApi, CLI_BUNDLE } from '../../apps/api/build/bundle.js';
import { adminQuery, adminUrl } from '../../apps/api/test/support/run-databases.js';
import { freePort } from '../../apps/api/test/support/server-process.js';
import { dropTestDatabase, runDatabaseName } from '../../apps/api/test/support/test-db.js';
import { type BuildStamp, CLIENT_STAMP, SSR_STAMP } from '../../apps/web/build/build-stamp.js';

export const ROOT = resolve(import.meta.dirname, '../..');

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
 * Builds the web app unless dist is newer than every source (CI builds before testing).
 * Rebuilding only when needed also keeps one test file from emptying dist under another.
 */
export function buildWeb(): void {
  const web = join(ROOT, 'apps/web');
  const dist = join(web, 'dist/index.html');
  const sources = Math.max(
    newestMtime(join(web, 'src')),
    newestMtime(join(web, 'build')),
    // The bundles include the contract (the SSR contract, the boot script's names: decision 109).
    newestMtime(join(ROOT, 'packages/contract/src')),
    newestMtime(join(web, 'public')),
    statSync(join(web, 'index.html')).mtimeMs,
    statSync(join(web, 'vite.config.ts')).mtimeMs,
    statSync(join(web, 'vite.ssr.config.ts')).mtimeMs,
  );
  // The server-rendering bundle is built last: it is the one that must be newer.
  const ssr = join(web, 'dist-ssr/entry-server.js');
  const fresh = existsSync(dist) && existsSync(ssr) && statSync(ssr).mtimeMs > sources;
  // A recent build is reused only if it was a production build: one made under a shell's
  // NODE_ENV=test (before the build script forced production) bundles React's development
  // build, which fails a dozen browser tests for no fault of the change (issue 29).
  if (fresh && [CLIENT_STAMP, SSR_STAMP].every((stamp) => isProductionStamp(join(web, stamp)))) {
    return;
  }
  execFileSync('npm', ['run', 'build', '-w', '@qless/web'], { cwd: ROOT, stdio: 'pipe' });
}

function isProductionStamp(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildStamp>).production === true;
  } catch {
    return false;
  }
}

/**
 * A PGlite server whose data folder is still empty starts from the run's migrated folder (the
 * browser project's global setup): migrating PGlite cost each of those servers about 4 CPU-s
 * of a CPU-bound suite (10.3 → 5.5 CPU-s a start; decision 117). It is `npm start`'s second
 * start, then; the first one, on a fresh folder, is the server-process test's. Outside a
 * Vitest run (the Lighthouse bench) the server migrates as `npm start` does.
 */
function startFromTemplate(dataDir: string): void {
  const target = join(dataDir, 'pglite');
  if (existsSync(target)) return;
  let template: string | undefined;
  try {
    template = inject('pgliteDataTemplate');
  } catch {
    return;
  }
  if (template) cpSync(template, target, { recursive: true });
}

/** The run's migrated PostgreSQL template, in a Vitest run (not the Lighthouse bench). */
function providedTemplate(): string | undefined {
  try {
    return inject('postgresTemplate');
  } catch {
    return undefined;
  }
}

export interface RunningServer {
  origin: string;
  port: number;
  /** Its PGlite data folder (unused on PostgreSQL). */
  dataDir: string;
  /** Its database on the machine's PostgreSQL (null on PGlite). */
  databaseUrl: string | null;
  /** The server's process id. */
  pid: number;
  stop: () => Promise<void>;
}

export interface ServerOptions {
  /** More environment for the server (e.g. SMTP_URL). */
  env?: Record<string, string>;
  /** Runs before the server starts, with its environment (e.g. the create-operator CLI). */
  prepare?: (env: NodeJS.ProcessEnv) => void;
  /** The port (a server started again at the same origin); a free one otherwise. */
  port?: number;
  /** A data folder of an earlier server to open again; kept when this one stops (PGlite). */
  dataDir?: string;
  /**
   * `postgres` (the default): a fresh database of its own on the machine's PostgreSQL,
   * dropped when it stops (in a Vitest run, by the run's teardown: `dropTestDatabase`),
   * unless `env.DATABASE_URL` names one. `pglite`: the embedded database of `npm start`, in a
   * data folder. A PGlite server spent about 5 s more CPU per
   * file than one on PostgreSQL (WASM start and queries in the server's own thread), and the
   * browser files are CPU-bound on this 2-core machine (decision 114); the files about the
   * embedded database and `npm start`'s path ask for it.
   */
  engine?: 'postgres' | 'pglite';
}

/**
 * The API bundled (apps/api/build/bundle.ts, the production build's own function) unless the
 * bundle is newer than every source: a browser test's server then starts on plain Node. Run
 * through tsx, each of the run's two dozen servers spent 2.2 s of CPU starting, about 1 s of
 * it compiling TypeScript; bundled once, 1.25 s (decision 114).
 */
export async function buildServer(): Promise<{ server: string; cli: string }> {
  return bundleApi({ onlyIfStale: true });
}

/**
 * The real API (serving apps/web/dist) on a free port with a fresh demo database
 * (PGlite in a temporary folder, or the PostgreSQL database `env.DATABASE_URL` names).
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  buildWeb();
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'qless-e2e-'));
  const origin = `http://127.0.0.1:${port}`;
  const engine = options.engine ?? (options.dataDir ? 'pglite' : 'postgres');
  let databaseUrl: string | null = options.env?.DATABASE_URL ?? null;
  let ownDatabase: string | null = null;
  if (engine === 'postgres' && !databaseUrl) {
    ownDatabase = runDatabaseName('e2e');
    const template = providedTemplate();
    // A copy of the run's migrated template: the server then has no migration to run.
    await adminQuery(`create database ${ownDatabase}${template ? ` template ${template}` : ''}`);
    const url = new URL(adminUrl);
    url.pathname = `/${ownDatabase}`;
    databaseUrl = url.toString();
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    SIMULATOR_DELAY_MS: '500',
    PUBLIC_ORIGIN: origin,
    LOG_LEVEL: 'warn',
    ...options.env,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  // PGlite means PGlite, whatever the shell exported.
  if (engine === 'pglite' && !options.env?.DATABASE_URL) {
    delete env.DATABASE_URL;
    startFromTemplate(dataDir);
  }
  let child: ChildProcess | null = null;
  try {
    // Built first: `prepare` may run the bundled command line (createOperator).
    const { server } = await buildServer();
    options.prepare?.(env);
    const started = spawn(process.execPath, [server], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    started.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    started.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`API exited early:\n${output}`);
      try {
        const res = await fetch(`${origin}/api/v1/health`);
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`API did not become healthy:\n${output}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  } catch (error) {
    // A server that did not start leaves nothing behind: its process, folder and database (the
    // database at the end of the run, `dropTestDatabase`).
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (ownDatabase) await dropTestDatabase(ownDatabase);
    throw error;
  }
  const running: ChildProcess = child;
  return {
    origin,
    port,
    dataDir,
    databaseUrl,
    pid: running.pid as number,
    stop: async () => {
      if (running.exitCode === null) {
        const exited = new Promise((r) => running.once('exit', r));
        running.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (running.exitCode === null) running.kill('SIGKILL');
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (ownDatabase) await dropTestDatabase(ownDatabase);
    },
  };
}

/**
 * Makes an operator with the create-operator CLI (the bundle startServer built) on the
 * server's database (call it from `prepare`, before the server opens that database).
 */
export function createOperator(
  env: NodeJS.ProcessEnv,
  operator: { email: string; password: string },
): void {
  execFileSync(
    process.execPath,
    [CLI_BUNDLE, 'create-operator', '--email', operator.email, '--password', operator.password],
    { cwd: ROOT, env, stdio: 'pipe' },
  );
}
