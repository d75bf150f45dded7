import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => ok(port));
    });
  });
}

let built = false;
/** Builds the web app once per run (CI has built it already: E2E_SKIP_BUILD=1 skips). */
export function buildWeb(): void {
  if (built) return;
  const dist = join(ROOT, 'apps/web/dist/index.html');
  if (!(process.env.E2E_SKIP_BUILD === '1' && existsSync(dist))) {
    execFileSync('npm', ['run', 'build', '-w', '@qless/web'], { cwd: ROOT, stdio: 'pipe' });
  }
  built = true;
}

export interface RunningServer {
  origin: string;
  stop: () => Promise<void>;
}

/** The real API (serving apps/web/dist) on a free port with a fresh demo database. */
export async function startServer(): Promise<RunningServer> {
  buildWeb();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'qless-e2e-'));
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/api/src/server.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED_DEMO: 'true',
        SIMULATOR_DELAY_MS: '500',
        PUBLIC_ORIGIN: origin,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
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
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
