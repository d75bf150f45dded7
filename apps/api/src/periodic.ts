/**
 * Runs `sweep` every `intervalMs` in the background (the reconciler, the mail worker). A
 * sweep still running when the next is due is not doubled; a failed sweep is reported and
 * the next one runs as usual. When `runAgain` says a sweep left work behind (it stopped at
 * its cap), the next one starts at once instead of at the next tick.
 */
export interface SweepOptions<T> {
  /** True when the sweep that returned `result` left work due (it stopped at its cap). */
  runAgain?(result: T): boolean;
}

export class PeriodicSweep<T = unknown> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = true;

  constructor(
    private readonly sweep: () => Promise<T>,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
    private readonly options: SweepOptions<T> = {},
  ) {}

  start(): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  private runOnce(): void {
    if (this.running || this.stopped) return;
    let again = false;
    this.running = this.sweep()
      .then((result) => {
        again = this.options.runAgain?.(result) ?? false;
      })
      .catch(this.onError)
      .finally(() => {
        this.running = null;
        if (again) setImmediate(() => this.runOnce());
      });
  }

  /** Stops the loop and waits for a sweep in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
