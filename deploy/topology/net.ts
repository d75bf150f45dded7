/**
 * The topology's network (decision 034): one network namespace per "host", veth links into two
 * bridges in the root namespace — `qx-front` (load, proxy, API processes) and `qx-back`
 * (API processes, database). The root namespace holds an address on each bridge: the test
 * itself reaches every host from there (readiness, metrics, the database checks) and runs the
 * database links' relay (db-links.ts). Every name starts with `qx-`/`qf-`/`qb-` so that a run
 * can remove what an aborted run left behind.
 */
import { execFileSync } from 'node:child_process';

export const FRONT_NET = '10.77.0';
export const BACK_NET = '10.77.1';
/** The root namespace's address on each bridge. */
export const ROOT_FRONT = `${FRONT_NET}.1`;
export const ROOT_BACK = `${BACK_NET}.1`;
export const PROXY_ADDRESS = `${FRONT_NET}.20`;
export const DB_ADDRESS = `${BACK_NET}.10`;
/** The load namespace's client addresses: the app limits per client address. */
export const LOAD_ADDRESSES = Array.from({ length: 64 }, (_, i) => `${FRONT_NET}.${128 + i}`);

export const apiFrontAddress = (n: number) => `${FRONT_NET}.${10 + n}`;
export const apiBackAddress = (n: number) => `${BACK_NET}.${10 + n}`;

const BRIDGES = ['qx-front', 'qx-back'];

export function sh(cmd: string, args: string[], opts: { quiet?: boolean } = {}): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    if (opts.quiet) return '';
    const e = err as { stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')}: ${e.stderr?.trim() || e.message}`);
  }
}

const ip = (...args: string[]) => sh('ip', args);
const inNs = (ns: string, ...args: string[]) => sh('ip', ['netns', 'exec', ns, ...args]);

/** Every process in the namespaces of a run, killed; the namespaces and bridges removed. */
export function removeTopology(): void {
  const namespaces = sh('ip', ['netns', 'list'], { quiet: true })
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter((name) => name.startsWith('qx-'));
  for (const ns of namespaces) {
    const pids = sh('ip', ['netns', 'pids', ns], { quiet: true }).split(/\s+/).filter(Boolean);
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
  // A killed process's namespace may take a moment to be free of it.
  for (const ns of namespaces) sh('ip', ['netns', 'del', ns], { quiet: true });
  const links = sh('ip', ['-o', 'link', 'show'], { quiet: true })
    .split('\n')
    .map((line) => /^\d+: ([^:@]+)/.exec(line)?.[1] ?? '')
    .filter((name) => /^(qx-|qf-|qb-)/.test(name));
  for (const link of links) sh('ip', ['link', 'del', link], { quiet: true });
}

export interface Host {
  ns: string;
  /** Its veth's name in the root namespace on each bridge it joins. */
  front?: string;
  back?: string;
}

function bridge(name: string, address: string): void {
  ip('link', 'add', name, 'type', 'bridge');
  ip('addr', 'add', `${address}/24`, 'dev', name);
  ip('link', 'set', name, 'up');
}

/** A veth from `ns` into `bridgeName`: `outer` in the root namespace, `inner` in `ns`. */
function link(ns: string, bridgeName: string, outer: string, inner: string, addresses: string[]) {
  ip('link', 'add', outer, 'type', 'veth', 'peer', 'name', `${outer}-p`);
  ip('link', 'set', `${outer}-p`, 'netns', ns);
  inNs(ns, 'ip', 'link', 'set', `${outer}-p`, 'name', inner);
  for (const address of addresses) inNs(ns, 'ip', 'addr', 'add', `${address}/24`, 'dev', inner);
  inNs(ns, 'ip', 'link', 'set', inner, 'up');
  ip('link', 'set', outer, 'master', bridgeName);
  ip('link', 'set', outer, 'up');
}

function host(ns: string): void {
  ip('netns', 'add', ns);
  inNs(ns, 'ip', 'link', 'set', 'lo', 'up');
}

/** Builds the whole network; returns the hosts by name. */
export function buildTopology(apiCount: number): Record<string, Host> {
  bridge('qx-front', ROOT_FRONT);
  bridge('qx-back', ROOT_BACK);
  // Bridged frames must not go through the root namespace's iptables (br_netfilter).
  for (const name of BRIDGES) {
    sh('sh', ['-c', `echo 0 > /sys/class/net/${name}/bridge/nf_call_iptables`], { quiet: true });
  }
  const hosts: Record<string, Host> = {};
  host('qx-db');
  link('qx-db', 'qx-back', 'qb-db', 'back', [DB_ADDRESS]);
  hosts.db = { ns: 'qx-db', back: 'qb-db' };
  for (let n = 1; n <= apiCount; n += 1) {
    const ns = `qx-api${n}`;
    host(ns);
    link(ns, 'qx-front', `qf-api${n}`, 'front', [apiFrontAddress(n)]);
    link(ns, 'qx-back', `qb-api${n}`, 'back', [apiBackAddress(n)]);
    hosts[`api${n}`] = { ns, front: `qf-api${n}`, back: `qb-api${n}` };
  }
  host('qx-proxy');
  link('qx-proxy', 'qx-front', 'qf-proxy', 'front', [PROXY_ADDRESS]);
  hosts.proxy = { ns: 'qx-proxy', front: 'qf-proxy' };
  host('qx-load');
  link('qx-load', 'qx-front', 'qf-load', 'front', LOAD_ADDRESSES);
  hosts.load = { ns: 'qx-load', front: 'qf-load' };
  return hosts;
}

/**
 * Cuts (or restores) a host's link to the back network at the switch: its veth's end on the
 * bridge goes down, so every packet it sends the database is dropped, as when a cable or a
 * switch port fails (the process itself sees no error, only silence).
 */
export function setBackLink(hostLink: string, up: boolean): void {
  ip('link', 'set', hostLink, up ? 'up' : 'down');
}
