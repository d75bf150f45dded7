import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readUntilDone } from './read-until-done';

describe('readUntilDone: the desk reads the queue numbers again after a failed read', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('tries again after 3 s, then 6 s, and gives the first value read', async () => {
    const read = vi
      .fn<(signal: AbortSignal) => Promise<string>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockRejectedValueOnce(new Error('503'))
      .mockResolvedValueOnce('A-042');
    const got: string[] = [];
    readUntilDone(read, new AbortController().signal, (v) => got.push(v));
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(5_999);
    expect(read).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(3);
    expect(got).toEqual(['A-042']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('waits at most the longest wait between failures', async () => {
    const read = vi.fn(() => Promise.reject(new Error('down')));
    readUntilDone(read, new AbortController().signal, () => {}, { firstMs: 10, maxMs: 40 });
    await vi.advanceTimersByTimeAsync(0); // 1st
    await vi.advanceTimersByTimeAsync(10); // 2nd, then 20
    await vi.advanceTimersByTimeAsync(20); // 3rd, then 40
    await vi.advanceTimersByTimeAsync(40); // 4th, then 40 (not 80)
    await vi.advanceTimersByTimeAsync(40); // 5th
    expect(read).toHaveBeenCalledTimes(5);
  });

  it('stops once aborted, and keeps no value read after the abort', async () => {
    const controller = new AbortController();
    let resolve: (v: string) => void = () => {};
    const read = vi
      .fn<(signal: AbortSignal) => Promise<string>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockImplementationOnce(() => new Promise((r) => (resolve = r)));
    const got: string[] = [];
    readUntilDone(read, controller.signal, (v) => got.push(v));
    await vi.advanceTimersByTimeAsync(3_000);
    expect(read).toHaveBeenCalledTimes(2);
    controller.abort();
    resolve('A-001');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(got).toEqual([]);
    expect(read).toHaveBeenCalledTimes(2);

    const stopped = new AbortController();
    const failing = vi.fn(() => Promise.reject(new Error('offline')));
    readUntilDone(failing, stopped.signal, () => {});
    await vi.advanceTimersByTimeAsync(0);
    stopped.abort();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(failing).toHaveBeenCalledTimes(1);
  });
});
