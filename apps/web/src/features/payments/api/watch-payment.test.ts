import type { PaymentStatusMessage } from '@qless/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POLL_INTERVAL_MS, statusSocketUrl, watchPayment } from './watch-payment';

class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static last: FakeSocket | null = null;
  readyState = FakeSocket.OPEN;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(message: PaymentStatusMessage) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  close() {
    this.closed = true;
  }
}

const msg = (status: PaymentStatusMessage['status']): PaymentStatusMessage => ({
  status,
  booking_id: null,
  ticket: null,
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('location', { protocol: 'https:', host: 'qless.example' });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('statusSocketUrl', () => {
  it('matches the page protocol', () => {
    expect(statusSocketUrl('p1', { protocol: 'https:', host: 'a.cm' })).toBe(
      'wss://a.cm/api/v1/payment/p1/statusSocket',
    );
    expect(statusSocketUrl('p1', { protocol: 'http:', host: '127.0.0.1:3000' })).toBe(
      'ws://127.0.0.1:3000/api/v1/payment/p1/statusSocket',
    );
  });
});

describe('watchPayment', () => {
  it('passes socket messages on and closes after a final status', () => {
    const seen: string[] = [];
    watchPayment('p1', (m) => seen.push(m.status));
    const socket = FakeSocket.last as FakeSocket;
    expect(socket.url).toBe('wss://qless.example/api/v1/payment/p1/statusSocket');
    socket.send(msg('PENDING'));
    socket.send(msg('SUCCESSFUL'));
    socket.send(msg('FAILED'));
    expect(seen).toEqual(['PENDING', 'SUCCESSFUL']);
    expect(socket.closed).toBe(true);
  });

  it('falls back to polling GET /api/v1/payment/{id} when the socket drops', async () => {
    const answers = [msg('PENDING'), msg('SUCCESSFUL')];
    const fetchMock = vi.fn(async (_url: string) => new Response(JSON.stringify(answers.shift())));
    vi.stubGlobal('fetch', fetchMock);
    const seen: string[] = [];
    watchPayment('p2', (m) => seen.push(m.status));
    (FakeSocket.last as FakeSocket).onclose?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(['PENDING']);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(seen).toEqual(['PENDING', 'SUCCESSFUL']);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/payment/p2');
  });

  it('stops everything when unsubscribed', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(msg('PENDING'))));
    vi.stubGlobal('fetch', fetchMock);
    const stop = watchPayment('p3', () => {});
    const socket = FakeSocket.last as FakeSocket;
    stop();
    expect(socket.closed).toBe(true);
    socket.onclose?.();
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 2);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
