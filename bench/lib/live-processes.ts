/**
 * What the live benchmarks (reconciler, status sockets) need around a real server process:
 * a fresh PostgreSQL database, the server started as its own process on it, and its memory
 * read from outside (RSS) and from inside (heap, after a GC) on demand.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../apps/api/test/support/server-process.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(ROOT, 'apps/api/src/server.ts');
const MEMORY_PROBE = path.join(ROOT, 'bench/lib/memory-probe.mjs');
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type { Figure } from './figures.js';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function freshPostgres(prefix: string): Promise<FreshDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface MemoryUsage {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface ServerProcess {
  readonly port: number;
  readonly origin: string;
  readonly child: ChildProcess;
  output(): string;
  /** RSS as the kernel sees it (bytes). */
  rss(): Promise<number>;
  /** The process's own figures after a full GC (the probe answers SIGUSR2). */
  memory(): Promise<MemoryUsage>;
  stop(): Promise<void>;
}

/**
 * Starts apps/api/src/server.ts with `env` (plus PATH) on a free port and waits until
 * /api/v1/health answers. The memory probe is loaded first, with --expose-gc.
 */
export async function startServer(
  env: Record<string, string>,
  options: { readyTimeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      // BENCH_SERVER_NODE_ARGS="--cpu-prof" profiles the server under benchmark.
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--expose-gc',
      '--import',
      'tsx',
      '--import',
      MEMORY_PROBE,
      SERVER,
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const memoryWaiters: Array<(m: MemoryUsage) => void> = [];
  let buffered = '';
  const onData = (d: Buffer) => {
    const text = String(d);
    buffered += text;
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.startsWith('QLESS_BENCH_MEMORY ')) {
        const m = JSON.parse(line.slice('QLESS_BENCH_MEMORY '.length)) as MemoryUsage;
        memoryWaiters.shift()?.(m);
      } else if (output.length < 200_000) {
        output += `${line}\n`;
      }
      nl = buffered.indexOf('\n');
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  let ready = false;
  while (!ready) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode} before it was ready:\n${output}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready in time:\n${output}`);
    }
    try {
      const res = await fetch(`${origin}/api/v1/health`);
      ready = res.ok;
    } catch {
      // not listening yet
    }
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    origin,
    child,
    output: () => output,
    async rss() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
      return Number(kb ?? 0) * 1024;
    },
    memory() {
      return new Promise<MemoryUsage>((resolve) => {
        memoryWaiters.push(resolve);
        child.kill('SIGUSR2');
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `check` every `everyMs` until it returns true or `timeoutMs` passes. */
export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 50,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return check();
}
