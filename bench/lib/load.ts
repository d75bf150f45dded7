import path from 'node:path';
import { ROOT, runNode } from './processes.js';

export interface LoadResult {
  /** Mean of the per-second request counts. */
  requestsPerSecond: number;
  total: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /**
   * With `cpuPid`: the CPU time that process spent per measured request (µs, user + system,
   * from /proc), a figure the shared machine's noise moves far less than requests a second.
   */
  cpuMicrosPerRequest?: number;
}

export interface LoadOptions {
  connections: number;
  /** Seconds measured, after `warmup` seconds not measured. */
  duration: number;
  warmup: number;
  headers?: Record<string, string>;
  /** The server's process: its CPU time is read around the measured seconds. */
  cpuPid?: number;
}

export const CONNECTIONS = 64;

export function loadOptions(quick: boolean): LoadOptions {
  return quick
    ? { connections: CONNECTIONS, duration: 2, warmup: 1 }
    : { connections: CONNECTIONS, duration: 5, warmup: 1 };
}

/** autocannon against `url` from its own process. */
export async function load(url: string, opts: LoadOptions): Promise<LoadResult> {
  const out = await runNode('load client', path.join(ROOT, 'bench/lib/load-worker.ts'), [
    url,
    JSON.stringify(opts),
  ]);
  const line = out.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as LoadResult;
}
