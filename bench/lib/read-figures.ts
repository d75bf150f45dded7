/**
 * The reads group's figures (bench/lib/server-figures.ts measures them): each read's
 * throughput, server CPU per request and p99 against the bare server answering the same bytes.
 */
import { mean } from './api-json.js';
import type { Figure } from './figures.js';
import type { LoadResult } from './load.js';
import type { Engine } from './processes.js';

const P99_TARGET_MS = 50;
const RATIO_TARGET = 0.5;

export interface Read {
  name: string;
  path: string;
}

export interface ReadRun {
  read: Read;
  real: LoadResult;
  bare: LoadResult[];
  bytes: number;
}

/** No answer, no latency: NaN rather than a p99 of 0 that would look like a fine figure. */
export const p99Of = (r: LoadResult) => (r.total > 0 ? r.p99 : Number.NaN);
/** Every answer a 2xx, none lost, and at least one: a run with no answer has no p99. */
export const clean = (r: LoadResult) =>
  r.total > 0 && r.non2xx === 0 && r.errors === 0 && r.timeouts === 0;
export const describe = (r: LoadResult) =>
  `${Math.round(r.requestsPerSecond)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ` +
  `${r.total} requests${clean(r) ? '' : `, ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`}`;

export function readFigures(engine: Engine, runs: ReadRun[]): Figure[] {
  const figures: Figure[] = [];
  for (const { read, real, bare, bytes } of runs) {
    const bareRps = mean(bare.map((b) => b.requestsPerSecond));
    const bareP99 = mean(bare.map((b) => b.p99));
    const ratio = real.requestsPerSecond / bareRps;
    const detail = `${read.path} (${bytes} bytes): ${describe(real)}; bare ${bare.map(describe).join(' / ')}`;
    figures.push(
      {
        name: `${read.name}: throughput`,
        engine,
        value: real.requestsPerSecond,
        unit: 'req/s',
        baseline: bareRps,
        ratio,
        target: `>= ${RATIO_TARGET} x bare`,
        met: ratio >= RATIO_TARGET && clean(real),
        detail,
      },
      ...cpuFigure(engine, read.name, real, bare),
      {
        name: `${read.name}: p99`,
        engine,
        value: p99Of(real),
        unit: 'ms',
        baseline: bareP99,
        ratio: p99Of(real) / bareP99,
        target: `<= ${P99_TARGET_MS} ms`,
        met: real.p99 <= P99_TARGET_MS && clean(real),
      },
    );
  }
  return figures;
}

/**
 * The server's CPU time per request against the bare server's: the same target as the
 * throughput's, in the figure the machine's noise moves least (the load client and the
 * other processes take cores, not the server's own time per request).
 */
function cpuFigure(engine: Engine, name: string, real: LoadResult, bare: LoadResult[]): Figure[] {
  const bareCpu = bare.map((b) => b.cpuMicrosPerRequest).filter((v) => v !== undefined);
  if (real.cpuMicrosPerRequest === undefined || bareCpu.length === 0) return [];
  const baseline = mean(bareCpu);
  const ratio = baseline / real.cpuMicrosPerRequest;
  return [
    {
      name: `${name}: server CPU per request`,
      engine,
      value: Math.round(real.cpuMicrosPerRequest * 10) / 10,
      unit: 'µs',
      baseline: Math.round(baseline * 10) / 10,
      ratio,
      target: `bare / this >= ${RATIO_TARGET}`,
      met: ratio >= RATIO_TARGET && clean(real),
    },
  ];
}
