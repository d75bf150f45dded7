/**
 * Runs `sweep` every `intervalMs` in the background (the reconciler, the mail worker). A
 * sweep still running when the next is due is not doubled; a failed sweep is reported and
 * the next one runs as usual.
 */
export class PeriodicSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly sweep: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .catch(this.onError)
        .finally(() => {
          this.running = null;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops the loop and waits for a sweep in flight. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
