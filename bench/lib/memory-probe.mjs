// Loaded into the server under benchmark (node --expose-gc --import): on SIGUSR2 it runs a
// full GC and prints the process's memory figures on one line for the benchmark to read.
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  process.stdout.write(
    `QLESS_BENCH_MEMORY ${JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers })}\n`,
  );
});
