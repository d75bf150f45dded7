/**
 * Reads until a read succeeds or `signal` aborts: after a failure it waits `firstMs`, then
 * twice as long each time, up to `maxMs` (a slow or dropped network, a server restarting).
 * The value goes to `onValue`; a read that ends after the abort gives nothing.
 */
export function readUntilDone<T>(
  read: (signal: AbortSignal) => Promise<T>,
  signal: AbortSignal,
  onValue: (value: T) => void,
  { firstMs = 3_000, maxMs = 30_000 } = {},
): void {
  let wait = firstMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  const attempt = () => {
    if (signal.aborted) return;
    read(signal).then(
      (value) => {
        if (!signal.aborted) onValue(value);
      },
      () => {
        if (signal.aborted) return;
        timer = setTimeout(attempt, wait);
        wait = Math.min(maxMs, wait * 2);
      },
    );
  };
  attempt();
}
