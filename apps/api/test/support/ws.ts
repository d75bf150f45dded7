import WebSocket from 'ws';

export interface SocketRecording {
  messages: Record<string, unknown>[];
  closeCode: number;
}

/** Opens a socket and records every message until the server closes it. */
export function recordSocket(
  url: string,
  origin: string,
  options: { timeoutMs?: number; onMessage?: (message: Record<string, unknown>) => void } = {},
): Promise<SocketRecording> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { origin } });
    const messages: Record<string, unknown>[] = [];
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`socket did not close in time; got ${JSON.stringify(messages)}`));
    }, timeoutMs);
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      messages.push(message);
      options.onMessage?.(message);
    });
    ws.on('close', (code) => {
      clearTimeout(timer);
      resolve({ messages, closeCode: code });
    });
    ws.on('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      reject(new Error(`HTTP ${res.statusCode}`));
    });
    ws.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** Opens a socket and keeps it open; resolves once the first message has arrived. */
export function openSocket(
  url: string,
  origin: string,
): Promise<{ ws: WebSocket; first: Record<string, unknown>; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { origin } });
    const closed = new Promise<number>((done) => ws.on('close', (code) => done(code)));
    ws.once('message', (data) => {
      resolve({ ws, first: JSON.parse(String(data)) as Record<string, unknown>, closed });
    });
    ws.on('error', reject);
  });
}
