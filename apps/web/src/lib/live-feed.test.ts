import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffMs, followFeed, reconnectDelayMs } from './live-feed';

describe('backoffMs', () => {
  it('doubles from 1 s up to the cap, within ±20 %', () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 6].map((a) => backoffMs(a, 30_000, mid))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(backoffMs(0, 30_000, () => 0)).toBe(800);
    expect(backoffMs(40, 30_000, () => 1)).toBe(36000);
  });
});

describe('reconnectDelayMs', () => {
  const max = 30_000;
  it('reconnects within 0–1 s when a live socket is told its server restarts (1012)', () => {
    expect(reconnectDelayMs({ code: 1012, wasLive: true, attempt: 0 }, max, () => 0)).toBe(0);
    expect(reconnectDelayMs({ code: 1012, wasLive: true, attempt: 0 }, max, () => 0.999)).toBe(999);
    // Even after a long back-off sequence, once the socket had been live.
    for (const code of [1001, 1005, 1006, 1011, 1012]) {
      const delay = reconnectDelayMs({ code, wasLive: true, attempt: 1 }, max, () => 0.5);
      expect(delay, String(code)).toBe(500);
    }
  });

  it('backs off when the socket never opened, was refused, or drops promptly again and again', () => {
    const mid = () => 0.5;
    expect(reconnectDelayMs({ code: 1006, wasLive: false, attempt: 2 }, max, mid)).toBe(4000);
    expect(reconnectDelayMs({ code: undefined, wasLive: true, attempt: 0 }, max, mid)).toBe(1000);
    for (const code of [1000, 1008, 1013, 4404, 4429]) {
      expect(reconnectDelayMs({ code, wasLive: true, attempt: 1 }, max, mid), String(code)).toBe(
        2000,
      );
    }
    expect(reconnectDelayMs({ code: 1012, wasLive: true, attempt: 3 }, max, mid)).toBe(8000);
  });
});

class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  frame(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) });
  }
  /** The server closes it. */
  closeBy(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  close() {
    this.readyState = 3;
  }
}

describe('followFeed after a deploy', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.useFakeTimers();
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.stubGlobal('location', { protocol: 'https:', host: 'qless.example' });
    // The top of both ranges: a prompt reconnect waits 990 ms, a first back-off 1,196 ms.
    vi.spyOn(Math, 'random').mockReturnValue(0.99);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('reconnects within a second of a 1012 and takes the first frame as the state now', async () => {
    const states: string[] = [];
    const fetchOnce = vi.fn(async () => 'PENDING');
    const stop = followFeed<string>({
      socketPath: '/api/v1/payment/p1/statusSocket',
      fetchOnce,
      read: (d) => (d as { status?: string }).status ?? null,
      onState: (s) => states.push(s),
      pollMs: 2000,
      isFinal: (s) => s !== 'PENDING',
    });
    const first = FakeSocket.all[0] as FakeSocket;
    expect(first.url).toBe('wss://qless.example/api/v1/payment/p1/statusSocket');
    first.open();
    first.frame({ status: 'PENDING' });
    // An hour later, its process is deployed.
    await vi.advanceTimersByTimeAsync(3_600_000);
    first.closeBy(1012);
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.all).toHaveLength(2);
    const second = FakeSocket.all[1] as FakeSocket;
    second.open();
    // The payment settled while no socket was open: the first frame says so.
    second.frame({ status: 'SUCCESSFUL' });
    expect(states.at(-1)).toBe('SUCCESSFUL');
    // Final: the feed stopped, nothing more is opened or polled.
    const polls = fetchOnce.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(2);
    expect(fetchOnce.mock.calls.length).toBe(polls);
    stop();
  });

  it('a socket refused at once backs off instead of hammering', async () => {
    const stop = followFeed<string>({
      socketPath: '/api/v1/board/t/socket',
      fetchOnce: async () => 'x',
      read: () => null,
      onState: () => {},
      pollMs: 5000,
    });
    (FakeSocket.all[0] as FakeSocket).closeBy(1006); // never opened
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(FakeSocket.all).toHaveLength(2);
    stop();
  });
});
