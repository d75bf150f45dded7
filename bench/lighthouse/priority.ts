/**
 * The page's renderer gets the CPU first (decision 127). Lighthouse's simulated throttling
 * multiplies the wall-clock length of every main-thread task in an unthrottled trace; when the
 * renderer waits for a core held by the API server, Lighthouse itself or the browser's other
 * processes, that wait is multiplied as if it were the page's work. On one core a page that
 * scores 100 on two measured 85 (TBT 24 → 567 ms), as stop 39's CI did. A phone's main thread
 * does not share its core with our server and harness, so on Linux the measurement lowers
 * everything but the renderers: the server and this process to niceness 19, the browser's
 * other processes to 10. Renderers (and the zygotes they are forked from) keep theirs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

const SERVER_AND_HARNESS = 19;
const BROWSER_SERVICES = 10;

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null; // gone meanwhile
  }
}

/** Every live process under `root`, `root` included. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const ppid = parentOf(pid);
    if (ppid !== null) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** A renderer or a zygote (renderers are forked from it and inherit its niceness). */
export function isRenderer(pid: number): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.includes('--type=renderer') || args.includes('--type=zygote');
  } catch {
    return false;
  }
}

function lower(pid: number, niceness: number): void {
  try {
    setPriority(pid, niceness);
  } catch {
    // gone meanwhile, or not ours: it keeps its priority
  }
}

/**
 * Lowers the server, this process and the browser's processes other than renderers. Called
 * before each load: the browser starts processes as it goes, and they inherit its niceness.
 */
export function favourRenderers(
  browserPid: number,
  serverPid: number,
  harnessPid: number = process.pid,
): void {
  if (process.platform !== 'linux') return;
  lower(serverPid, SERVER_AND_HARNESS);
  lower(harnessPid, SERVER_AND_HARNESS);
  for (const pid of processTree(browserPid)) {
    if (!isRenderer(pid)) lower(pid, BROWSER_SERVICES);
  }
}
