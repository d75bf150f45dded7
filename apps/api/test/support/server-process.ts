import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
/**
 * The production bundle of apps/api/src/server.ts (apps/api/build/bundle.ts), which the
 * API projects' global setup brings up to date: what `npm start` and the deploy run, and it
 * starts on 1.5 CPU-s where tsx spent 2.2 (decisions 114, 116).
 */
const SERVER = path.join(ROOT, 'apps/api/dist/server.mjs');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Runs the API server (its bundle) as its own process with only `env` (plus PATH). */
export function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += String(d);
  });
  child.stderr.on('data', (d) => {
    output += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}
