import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../apps/api/test/support/server-process.js';

export const ROOT = resolve(import.meta.dirname, '../..');

function newestMtime(dir: string): number {
  let newest = 0;
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
  if (existsSync(dist) && existsSync(ssr) && statSync(ssr).mtimeMs > sources) return;
  // NODE_ENV as vitest sets it ('test') would make Vite bundle React's development build.
  execFileSync('npm', ['run', 'build', '-w', '@qless/web'], {
    cwd: ROOT,
    stdio: 'pipe',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

export interface RunningServer {
  origin: string;
  port: number;
  /** Its PGlite data folder (unused when DATABASE_URL is set). */
  dataDir: string;
  stop: () => Promise<void>;
}

export interface ServerOptions {
  /** More environment for the server (e.g. SMTP_URL). */
  env?: Record<string, string>;
  /** Runs before the server starts, with its environment (e.g. the create-operator CLI). */
  prepare?: (env: NodeJS.ProcessEnv) => void;
  /** The port (a server started again at the same origin); a free one otherwise. */
  port?: number;
  /** A data folder of an earlier server to open again; kept when this one stops. */
  dataDir?: string;
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
  };
  options.prepare?.(env);
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/api/src/server.ts'],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API exited early:\n${output}`);
    try {
      const res = await fetch(`${origin}/api/v1/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`API did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    origin,
    port,
    dataDir,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Makes an operator with the create-operator CLI on the server's database (call it from
 * `prepare`, before the server opens that database).
 */
export function createOperator(
  env: NodeJS.ProcessEnv,
  operator: { email: string; password: string },
): void {
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'apps/api/src/cli/create-operator.ts',
      '--email',
      operator.email,
      '--password',
      operator.password,
    ],
    { cwd: ROOT, env, stdio: 'pipe' },
  );
}
