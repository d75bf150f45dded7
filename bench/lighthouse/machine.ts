import { performance } from 'node:perf_hooks';

/**
 * What a first touch of memory costs on this machine, in microseconds per 4 KiB page
 * (decision 130): a fresh 64 MiB buffer is written once (each page faults in) and again (none
 * does), three times; the median difference per page. On a desktop or a phone it is well
 * under 1 µs; on a guest whose host traps every fault (seen: a "pvm" guest, 11.9–12.6 µs) a
 * renderer that builds a page pays it on every page of heap it grows, so its tasks run
 * several times longer than `benchmarkIndex` (a loop over memory already touched) predicts.
 */
export function faultMicros(): number {
  const size = 64 << 20;
  const pages = size / 4096;
  const samples: number[] = [];
  for (let round = 0; round < 3; round++) {
    const buffer = Buffer.alloc(size);
    let started = performance.now();
    buffer.fill(1);
    const first = performance.now() - started;
    started = performance.now();
    buffer.fill(2);
    const again = performance.now() - started;
    samples.push(Math.max(0, ((first - again) * 1000) / pages));
  }
  samples.sort((a, b) => a - b);
  return samples[1] ?? 0;
}

/** Above this a machine's page work is the host's, not the page's (decision 130). */
export const FAULT_LIMIT_MICROS = 2;

/**
 * The metrics whose misses fail the run on a machine whose faults cost `micros`: all of
 * `asked` on an ordinary machine; without `performance` (TBT-led) on one above the limit,
 * unless `strict` (LIGHTHOUSE_STRICT=1) keeps it. LCP and CLS stay gated everywhere.
 */
export function gatedMetrics(
  asked: ReadonlySet<string>,
  micros: number,
  strict = false,
): { metrics: Set<string>; dropped: string | null } {
  const metrics = new Set(asked);
  if (strict || micros <= FAULT_LIMIT_MICROS || !metrics.has('performance')) {
    return { metrics, dropped: null };
  }
  metrics.delete('performance');
  return {
    metrics,
    dropped:
      `this machine: a first touch of memory costs ${micros.toFixed(1)} µs per 4 KiB page ` +
      `(over ${FAULT_LIMIT_MICROS} µs; a desktop or phone: under 1 µs), so its renderer's ` +
      'tasks are the host’s cost more than the page’s: the performance score is measured, ' +
      'not gated (LCP and CLS are; LIGHTHOUSE_STRICT=1 gates it; decision 130)',
  };
}
