/**
 * What runs on the topology's hosts (decision 034): PostgreSQL 15 in `qx-db`, the API
 * processes in `qx-api1..3` (the command and environment of deploy/systemd/qless@.service
 * when it exists), Debian's nginx with deploy/nginx/qless.conf in `qx-proxy`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { apiFrontAddress, DB_ADDRESS, PROXY_ADDRESS, sh } from './net.js';

export const ROOT = resolve(import.meta.dirname, '../..');
const PG_BIN = '/usr/lib/postgresql/15/bin';
export const HOST_NAME = 'qless.test';
export const API_PORT = 3000;

/** Runs `argv` in namespace `ns`; its output goes to `logFile`. */
export function spawnIn(
  ns: string,
  argv: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; logFile: string; stdin?: boolean },
): ChildProcess {
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  const child = spawn('ip', ['netns', 'exec', ns, ...argv], {
    cwd: opts.cwd ?? ROOT,
    env: opts.env ?? process.env,
    stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

export function tail(file: string, lines = 30): string {
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 200,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** PostgreSQL 15 of its own in `qx-db`, in `dir`, listening on DB_ADDRESS:5432. */
export async function startPostgres(dir: string): Promise<void> {
  const data = join(dir, 'pgdata');
  mkdirSync(data, { recursive: true });
  chmodSync(dir, 0o755);
  sh('chown', ['-R', 'postgres:postgres', dir]);
  const asPostgres = (...argv: string[]) => ['runuser', '-u', 'postgres', '--', ...argv];
  const [cmd, ...args] = asPostgres(
    `${PG_BIN}/initdb`,
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--no-sync',
  );
  sh(cmd as string, args);
  // A test database: durability is not what this test is about, its time is.
  writeFileSync(
    join(data, 'postgresql.auto.conf'),
    [
      `listen_addresses = '${DB_ADDRESS}'`,
      'port = 5432',
      `unix_socket_directories = '${dir}'`,
      'max_connections = 200',
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'shared_buffers = 64MB',
      '',
    ].join('\n'),
  );
  writeFileSync(join(data, 'pg_hba.conf'), 'host all all 10.77.0.0/16 trust\n', { flag: 'a' });
  sh('ip', [
    'netns',
    'exec',
    'qx-db',
    ...asPostgres(
      `${PG_BIN}/pg_ctl`,
      '-D',
      data,
      '-l',
      join(dir, 'postgres.log'),
      '-w',
      '-t',
      '30',
      'start',
    ),
  ]);
}

export function stopPostgres(dir: string): void {
  sh(
    'ip',
    [
      'netns',
      'exec',
      'qx-db',
      'runuser',
      '-u',
      'postgres',
      '--',
      `${PG_BIN}/pg_ctl`,
      '-D',
      join(dir, 'pgdata'),
      '-m',
      'immediate',
      'stop',
    ],
    { quiet: true },
  );
}

export interface ApiCommand {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** Where the command came from, for the report. */
  source: string;
}

/** Where the VM's release folders (/opt/qless/current, next, previous) are in this test. */
export interface ReleaseDirs {
  current: string;
  previous: string;
}

/**
 * The command and environment a systemd unit of deploy/systemd declares (ExecStart,
 * Environment=; `%i` is the instance), the VM's release folders mapped to the test's.
 * EnvironmentFile= (the operator's settings and secrets) is not read: the test gives its own.
 * Null when there is no such unit.
 */
export function unitCommand(unit: string, instance: string, dirs: ReleaseDirs): ApiCommand | null {
  const file = join(ROOT, 'deploy/systemd', unit);
  if (!existsSync(file)) return null;
  let execStart = '';
  let workDir = '';
  const env: Record<string, string> = {};
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim().replaceAll('%i', instance);
    if (line.startsWith('ExecStart=')) execStart = line.slice('ExecStart='.length);
    if (line.startsWith('WorkingDirectory=')) workDir = line.slice('WorkingDirectory='.length);
    if (line.startsWith('Environment=')) {
      // Environment=A=1 "B=two words"
      for (const a of line.slice('Environment='.length).match(/"[^"]*"|\S+/g) ?? []) {
        const [key, ...value] = a.replace(/^"|"$/g, '').split('=');
        if (key) env[key] = value.join('=');
      }
    }
  }
  if (!execStart || !workDir) throw new Error(`${file}: no ExecStart or WorkingDirectory`);
  // /opt/qless/current (or next) is this checkout; /opt/qless/previous the previous release's.
  const base = workDir.replace(/\/[^/]+$/, '');
  const mapPath = (value: string) =>
    value
      .replaceAll(`${base}/previous`, dirs.previous)
      .replaceAll(`${base}/current`, dirs.current)
      .replaceAll(`${base}/next`, dirs.current);
  for (const key of Object.keys(env)) env[key] = mapPath(env[key] as string);
  const argv = (execStart.replace(/^[-@:+!]+/, '').match(/"[^"]*"|\S+/g) ?? []).map((a) =>
    mapPath(a.replace(/^"|"$/g, '')),
  );
  if (/(^|\/)node$/.test(argv[0] ?? '')) argv[0] = process.execPath;
  return { argv, env, cwd: mapPath(workDir), source: `deploy/systemd/${unit}` };
}

/** Debian's nginx, configured as on a VM, in `qx-proxy`; returns its master process. */
export function startNginx(dir: string): { child: ChildProcess; accessLog: string } {
  const etc = join(dir, 'nginx-etc');
  const logs = join(dir, 'nginx-log');
  rmSync(etc, { recursive: true, force: true });
  sh('cp', ['-a', '/etc/nginx', etc]);
  mkdirSync(logs, { recursive: true });
  // Debian's own nginx.conf, but its pid file in the test's folder (a system nginx may run).
  const mainConf = readFileSync(join(etc, 'nginx.conf'), 'utf8').replace(
    /^pid .*;$/m,
    `pid ${join(dir, 'nginx.pid')};`,
  );
  writeFileSync(join(etc, 'nginx.conf'), mainConf);
  rmSync(join(etc, 'sites-enabled'), { recursive: true, force: true });
  mkdirSync(join(etc, 'sites-enabled'));
  copyFileSync(join(ROOT, 'deploy/nginx/qless.conf'), join(etc, 'sites-enabled/qless.conf'));
  mkdirSync(join(etc, 'qless/tls'), { recursive: true });
  // The VM's upstream file with the namespaces' addresses: the same parameters are tested.
  const vm = readFileSync(join(ROOT, 'deploy/nginx/upstream-vm.conf'), 'utf8');
  let replaced = 0;
  const upstream = vm.replace(/127\.0\.0\.1:300(\d)/g, (_m, n: string) => {
    replaced += 1;
    return `${apiFrontAddress(Number(n))}:${API_PORT}`;
  });
  if (replaced !== 3) throw new Error('upstream-vm.conf: expected 127.0.0.1:3001..3003');
  writeFileSync(join(etc, 'qless/upstream.conf'), upstream);
  // A throwaway certificate for qless.test (P-256: cheap handshakes for 300 sockets).
  sh('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    join(etc, 'qless/tls/privkey.pem'),
    '-out',
    join(etc, 'qless/tls/fullchain.pem'),
    '-days',
    '1',
    '-subj',
    `/CN=${HOST_NAME}`,
    '-addext',
    `subjectAltName=DNS:${HOST_NAME}`,
  ]);
  copyFileSync(join(etc, 'qless/tls/fullchain.pem'), join(dir, 'ca.pem'));
  // ip netns exec gives the process a mount namespace of its own: nginx sees the test's
  // folders at Debian's paths, the machine's /etc/nginx and logs stay untouched.
  const script = [
    `mount --bind ${etc} /etc/nginx`,
    `mount --bind ${logs} /var/log/nginx`,
    'nginx -t -q',
    `exec nginx -g 'daemon off;'`,
  ].join(' && ');
  const child = spawnIn('qx-proxy', ['sh', '-c', script], { logFile: join(dir, 'nginx.out') });
  return { child, accessLog: join(logs, 'qless.access.log') };
}

export { PROXY_ADDRESS };
