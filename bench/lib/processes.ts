import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../apps/api/test/support/server-process.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(ROOT, 'apps/api/src/server.ts');
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type Engine = 'pglite' | 'postgres';

/**
 * Everything started here is stopped here, also on an error or Ctrl-C: children are
 * killed and scratch databases and folders removed, last started first.
 */
const cleanups: { label: string; run: () => Promise<void> }[] = [];

export function onCleanup(label: string, run: () => Promise<void>): () => Promise<void> {
  const entry = { label, run };
  cleanups.push(entry);
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    const i = cleanups.indexOf(entry);
    if (i >= 0) cleanups.splice(i, 1);
    await run();
  };
}

export async function cleanupAll(): Promise<void> {
  while (cleanups.length > 0) {
    const entry = cleanups.pop();
    if (!entry) break;
    try {
      await entry.run();
    } catch (err) {
      console.error(`cleanup of ${entry.label} failed: ${(err as Error).message}`);
    }
  }
}

let signalled = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // Ctrl-C reaches npm, tsx and this process at once, and they pass it on as SIGTERM: a
    // second signal soon after the first must not cut the cleanup short (it is bounded:
    // children are killed after 5 s), only a later one, from someone who means it.
    if (signalled) {
      if (Date.now() - signalled > 3000) process.exit(130);
      return;
    }
    signalled = Date.now();
    console.error(`\n${signal}: stopping what the bench started…`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

export interface Child {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
  stop(): Promise<void>;
}

/** Node with tsx, as `npm start` runs the API; output kept for the error message. */
export function spawnNode(
  label: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Child {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + String(d)).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.on('error', () => resolve(-1));
  });
  const stop = onCleanup(label, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  });
  return { child, exited, output: () => output, stop };
}

/** Runs a script to its end; throws with its output when it fails. Returns its stdout. */
export async function runNode(
  label: string,
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  let stdout = '';
  const c = spawnNode(label, script, args, env);
  c.child.stdout?.on('data', (d: Buffer) => {
    stdout += String(d);
  });
  const code = await c.exited;
  await c.stop();
  if (code !== 0) throw new Error(`${label} exited with ${code}:\n${c.output().slice(-3000)}`);
  return stdout;
}

export async function waitFor(url: string, child: Child, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {}
    if (child.child.exitCode !== null) {
      throw new Error(`process exited with ${child.child.exitCode}:\n${child.output()}`);
    }
    if (Date.now() > end) throw new Error(`no answer from ${url}:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Builds the web app once when a fresh clone has none, as `npm start` would. */
export function ensureWebBuild(): void {
  if (existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) return;
  console.log('apps/web/dist is missing: npm run build');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

export interface Store {
  engine: Engine;
  /** What the server (and the data generator) need to open this database. */
  env: Record<string, string>;
  /** PostgreSQL only: to query it directly. */
  url: string | null;
  drop(): Promise<void>;
}

let stores = 0;

/** A fresh database: a scratch DATA_DIR for PGlite, a new database on PostgreSQL. */
export async function createStore(engine: Engine): Promise<Store> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qless-bench-'));
  const removeDir = onCleanup(`scratch folder ${dataDir}`, async () => {
    rmSync(dataDir, { recursive: true, force: true });
  });
  if (engine === 'pglite') {
    return { engine, env: { DATA_DIR: dataDir }, url: null, drop: removeDir };
  }
  stores += 1;
  const name = `qless_bench_${process.pid}_${stores}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dropDb = onCleanup(`database ${name}`, async () => {
    const c = new pg.Client({ connectionString: ADMIN_URL });
    await c.connect();
    try {
      await c.query(`drop database if exists ${name} with (force)`);
    } finally {
      await c.end();
    }
  });
  return {
    engine,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    url: url.toString(),
    async drop() {
      await dropDb();
      await removeDir();
    },
  };
}

export async function postgresReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The server's settings for a bench: production mode, the simulator (never settling during
 * a run), and limits so generous that the bench measures the server, not the limiter.
 */
export const SERVER_ENV: Record<string, string> = {
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  SEED_DEMO: '1',
  PAYMENT_PROVIDER: 'simulator',
  SIMULATOR_DELAY_MS: '600000',
  RATE_LIMIT_INITIATE_PER_IP: '100000000',
  RATE_LIMIT_INITIATE_PER_PHONE: '100000000',
  PAYMENT_PROMPTS_PER_PHONE: '100000000',
  HOLDS_PER_IP: '100000000',
  HOLDS_PER_IP_PER_SERVICE: '100000000',
  RATE_LIMIT_TICKET_PER_IP: '100000000',
  RATE_LIMIT_TICKET_GLOBAL: '100000000',
  RATE_LIMIT_CONTACT_PER_IP: '100000000',
  STATUS_SOCKETS_PER_IP: '100000',
  // The contention's requests each carry their own client address (X-Forwarded-For).
  TRUST_PROXY: '1',
};

export interface RunningServer {
  base: string;
  /** Its process (the load worker reads its CPU time around a measured load). */
  pid: number | undefined;
  stop(): Promise<void>;
  output(): string;
}

/** The production server (`npm start`'s API: apps/api/src/server.ts under tsx) on a store. */
export async function startApi(
  store: Store,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS="--cpu-prof" profiles the server under benchmark.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const c = spawnNode(
    `api server (${store.engine})`,
    SERVER,
    [],
    {
      ...SERVER_ENV,
      ...store.env,
      PORT: String(port),
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      ...env,
    },
    nodeArgs,
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/api/v1/health`, c);
  } catch (err) {
    await c.stop();
    throw err;
  }
  return { base, pid: c.child.pid, stop: c.stop, output: c.output };
}

export interface BareRoute {
  method: 'GET' | 'POST';
  path: string;
  /** The query string it was captured with (without `?`); the path's other queries fall back. */
  query?: string;
  status: number;
  contentType: string;
  /** base64 */
  body: string;
}

/** A bare Fastify process answering the given bytes at the given paths. */
export async function startBare(routes: BareRoute[]): Promise<RunningServer> {
  const port = await freePort();
  // A file, not an environment variable: a large answer would pass the 128 KB limit of one.
  const dir = mkdtempSync(path.join(tmpdir(), 'qless-bare-'));
  const removeDir = onCleanup(`scratch folder ${dir}`, async () => {
    rmSync(dir, { recursive: true, force: true });
  });
  const file = path.join(dir, 'routes.json');
  writeFileSync(file, JSON.stringify(routes));
  const c = spawnNode('bare server', path.join(ROOT, 'bench/lib/bare-server.ts'), [file], {
    NODE_ENV: 'production',
    PORT: String(port),
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/__bare/ready`, c);
  } catch (err) {
    await c.stop();
    await removeDir();
    throw err;
  }
  return {
    base,
    pid: c.child.pid,
    async stop() {
      await c.stop();
      await removeDir();
    },
    output: c.output,
  };
}
