/**
 * Where `npm test`'s CPU goes, by test file (`npm run test:cpu [-- vitest args]`).
 *
 * The suite is CPU-bound on two cores (decisions 114, 116): its wall time follows the CPU it
 * needs, not its order. This runs Vitest once and samples every process's CPU time from
 * /proc five times a second. A process is charged to the Vitest worker it descends from
 * (Chromium and the API servers a browser file starts, `pg_dump`, the CLIs), and each of the
 * worker's samples to the file that the worker was running then (a setup file, loaded only
 * by this run, tells which). PostgreSQL's own processes are not anyone's descendants: they
 * are one line of their own. Prints the files by CPU-seconds and the totals by kind
 * (`-- --by-test`: the tests).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const TICK = 100; // clock ticks per second (getconf CLK_TCK)
const dir = mkdtempSync(join(tmpdir(), 'qless-test-cpu-'));
const marks = join(dir, 'marks.log');
writeFileSync(marks, '');

interface Proc {
  comm: string;
  ppid: number;
  cpu: number;
  worker: number | null;
  kind: string;
}

function readProc(pid: number): { comm: string; ppid: number; cpu: number; cmd: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / TICK;
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return { comm, ppid: Number(fields[1]), cpu, cmd };
  } catch {
    return null;
  }
}

function kindOf(comm: string, cmd: string): string {
  if (/chrom/i.test(comm) || /chrom/i.test(cmd)) return 'chromium';
  if (comm === 'postgres' || /postgres/.test(cmd.split(' ')[0] ?? '')) return 'postgres';
  if (/server\.mjs/.test(cmd)) return 'api server (bundle)';
  if (/cli\.mjs/.test(cmd)) return 'api cli (bundle)';
  if (/vitest[/\\]dist[/\\]workers|forks\.js|vitest\/dist\/.*worker/.test(cmd))
    return 'vitest worker';
  if (/vitest/.test(cmd)) return 'vitest main';
  if (/\btsx\b|--import tsx/.test(cmd)) return 'tsx';
  return comm;
}

const procs = new Map<number, Proc>();
/** Per 10 s of the run: the run's CPU-seconds, the machine's idle and niced seconds, files running. */
const WINDOW = 10;
const timeline: { run: number; idle: number; nice: number; files: Set<string> }[] = [];
let runStart = 0;
let lastStat: number[] | null = null;

function machineStat(): number[] {
  // cpu  user nice system idle iowait irq softirq steal ...
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  return line.trim().split(/\s+/).slice(1).map(Number);
}

function windowAt(): (typeof timeline)[number] {
  const index = Math.floor((Date.now() - runStart) / 1000 / WINDOW);
  while (timeline.length <= index) timeline.push({ run: 0, idle: 0, nice: 0, files: new Set() });
  return timeline[index] as (typeof timeline)[number];
}
const byKind = new Map<string, number>();
const byFile = new Map<string, Map<string, number>>();
/** worker pid → [start seconds, file] marks, in order. */
const running = new Map<number, string | null>();
let markOffset = 0;

function readMarks(): void {
  const text = readFileSync(marks, 'utf8');
  const fresh = text.slice(markOffset);
  const end = fresh.lastIndexOf('\n');
  if (end < 0) return;
  markOffset += end + 1;
  for (const line of fresh.slice(0, end).split('\n')) {
    const [pid, what, file] = line.split('\t');
    running.set(Number(pid), what === 'start' ? (file ?? null) : null);
  }
}

function add(map: Map<string, number>, key: string, value: number): void {
  map.set(key, (map.get(key) ?? 0) + value);
}

function workerOf(
  pid: number,
  ppid: number,
  root: number,
): { worker: number | null; inRun: boolean } {
  if (running.has(pid)) return { worker: pid, inRun: true };
  let worker: number | null = null;
  let inRun = pid === root;
  for (let p = ppid, hops = 0; p > 1 && hops < 30; hops++) {
    if (running.has(p)) worker ??= p;
    if (p === root) {
      inRun = true;
      break;
    }
    p = readProc(p)?.ppid ?? 0;
  }
  return { worker, inRun };
}

/** `baseline`: the first sample, before the run, whose CPU so far is no one's. */
function sample(root: number, baseline = false): void {
  readMarks();
  const stat = machineStat();
  const window = windowAt();
  if (lastStat) {
    window.idle +=
      ((stat[3] ?? 0) + (stat[4] ?? 0) - (lastStat[3] ?? 0) - (lastStat[4] ?? 0)) / TICK;
    window.nice += ((stat[1] ?? 0) - (lastStat[1] ?? 0)) / TICK;
  }
  lastStat = stat;
  for (const file of running.values()) if (file) window.files.add(file.split(':')[0] ?? '');
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const now = readProc(pid);
    if (!now) continue;
    let proc = procs.get(pid);
    if (!proc || proc.comm !== now.comm) {
      const kind = kindOf(now.comm, now.cmd);
      const { worker, inRun } = workerOf(pid, now.ppid, root);
      if (!inRun && kind !== 'postgres') continue;
      // A process first seen during the run is charged from its start.
      proc = {
        comm: now.comm,
        ppid: now.ppid,
        cpu: proc?.cpu ?? (baseline ? now.cpu : 0),
        worker,
        kind,
      };
      procs.set(pid, proc);
    } else if (proc.worker === null && proc.kind !== 'postgres') {
      proc.worker = workerOf(pid, now.ppid, root).worker;
    }
    const delta = now.cpu - proc.cpu;
    proc.cpu = now.cpu;
    if (delta <= 0) continue;
    add(byKind, proc.kind, delta);
    window.run += delta;
    const file = proc.worker !== null ? running.get(proc.worker) : undefined;
    const key =
      file ?? (proc.kind === 'postgres' ? '(postgres)' : `(outside a file: ${proc.kind})`);
    const row = byFile.get(key) ?? new Map<string, number>();
    add(row, proc.kind, delta);
    byFile.set(key, row);
  }
}

/**
 * `--by-test`: each test on a line of its own, with its file's beforeEach and afterEach (the
 * setup file's hooks wrap them); the file's beforeAll on the file's own line, its afterAll on
 * `<file> (hooks)`. Tests that run concurrently in one file are charged to the last to start.
 */
const byTest = process.argv.includes('--by-test');
const setup = join(dir, 'mark.ts');
writeFileSync(
  setup,
  `import { appendFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
// The project too: a file runs once per engine (api, api-pglite).
const worker = (globalThis as { __vitest_worker__?: { ctx?: { projectName?: string } } }).__vitest_worker__;
const file = () => (worker?.ctx?.projectName ?? '?') + ':' + (expect.getState().testPath ?? '');
const mark = (what: string) => appendFileSync(${JSON.stringify(marks)}, process.pid + '\\tstart\\t' + what + '\\n');
beforeAll(() => mark(file()));
afterAll(() => appendFileSync(${JSON.stringify(marks)}, process.pid + '\\tend\\t\\n'));
${
  byTest
    ? `beforeEach(() => mark(file() + ' > ' + (expect.getState().currentTestName ?? '')));
afterEach(() => mark(file() + ' (hooks)'));`
    : ''
}
`,
);

const started = Date.now();
runStart = started;
const child = spawn(
  'npx',
  ['vitest', 'run', '--reporter=dot', ...process.argv.slice(2).filter((a) => a !== '--by-test')],
  {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, QLESS_TEST_SETUP: setup },
  },
);
// PostgreSQL's processes existed before the run: their CPU counts from here on.
sample(child.pid ?? 0, true);
const timer = setInterval(() => sample(child.pid ?? 0), 200);
const code: number = await new Promise((r) => child.on('exit', (c) => r(c ?? 1)));
clearInterval(timer);
sample(child.pid ?? 0);
const wall = (Date.now() - started) / 1000;

const total = [...byKind.values()].reduce((a, b) => a + b, 0);
console.log(
  `\nwall ${wall.toFixed(0)} s, CPU ${total.toFixed(0)} s (${(total / wall).toFixed(2)} cores)`,
);
console.log(
  `\nper ${WINDOW} s: cores used by the run, idle, niced (another job), projects running`,
);
for (const [i, w] of timeline.entries()) {
  const cores = (x: number) => (x / WINDOW).toFixed(2);
  console.log(
    `  ${String(i * WINDOW).padStart(4)} s  run ${cores(w.run)}  idle ${cores(w.idle)}  nice ${cores(w.nice)}  ${[...w.files].sort().join(' ')}`,
  );
}
console.log('\nby kind (CPU-s):');
for (const [kind, s] of [...byKind].sort((a, b) => b[1] - a[1])) {
  console.log(`  ${s.toFixed(1).padStart(7)}  ${kind}`);
}
console.log('\nby file (CPU-s: total = kinds):');
const rows = [...byFile].map(([file, kinds]) => ({
  file: file.replace(`${ROOT}/`, ''),
  total: [...kinds.values()].reduce((a, b) => a + b, 0),
  kinds,
}));
for (const row of rows.sort((a, b) => b.total - a.total)) {
  const parts = [...row.kinds]
    .sort((a, b) => b[1] - a[1])
    .map(([k, s]) => `${k} ${s.toFixed(1)}`)
    .join(', ');
  console.log(`  ${row.total.toFixed(1).padStart(7)}  ${row.file}  (${parts})`);
}
process.exitCode = code;
