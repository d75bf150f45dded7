import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { BoardSnapshot } from '@qless/contract';
import { type WebSocket, WebSocketServer } from 'ws';
import { ROOT } from './server';

const DIST = join(ROOT, 'apps/web/dist');
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.html': 'text/html',
};

export interface FakeBoardServer {
  origin: string;
  /** The board page's path. */
  path: string;
  /** Sockets opened so far (a reconnect adds one). */
  connections(): number;
  /** Sets the board's state: GET answers it, and the open socket (if any) is sent it. */
  push(snapshot: BoardSnapshot): void;
  /** Drops the open socket as a lost network would. */
  drop(): void;
  close(): Promise<void>;
}

/**
 * The built web app beside a board that the test drives: GET /api/v1/board/{token} (and its
 * join-code, none asked) and its socket answer whatever snapshot the test pushes last, so a board's screen can be tried on
 * exact messages (two calls in one message, a reconnect, a call that ends).
 */
export async function fakeBoardServer(
  token: string,
  initial: BoardSnapshot,
): Promise<FakeBoardServer> {
  let current = initial;
  let connections = 0;
  let socket: WebSocket | null = null;
  const sockets = new WebSocketServer({ noServer: true });
  const http: Server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === `/api/v1/board/${token}`) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(current));
      return;
    }
    // No hall code asked (decision 125): the board shows none.
    if (path === `/api/v1/board/${token}/join-code`) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const changesAt = new Date(Math.floor(Date.now() / 120_000 + 1) * 120_000);
      res.end(JSON.stringify({ required: false, code: null, changes_at: changesAt.toISOString() }));
      return;
    }
    const file = extname(path) ? join(DIST, normalize(path)) : join(DIST, 'index.html');
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  http.on('upgrade', (req, tcp, head) => {
    if (req.url !== `/api/v1/board/${token}/socket`) return tcp.destroy();
    sockets.handleUpgrade(req, tcp, head, (ws) => {
      connections += 1;
      socket = ws;
      ws.send(JSON.stringify(current));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    path: `/board/${token}`,
    connections: () => connections,
    push(snapshot) {
      current = snapshot;
      socket?.send(JSON.stringify(snapshot));
    },
    drop() {
      socket?.terminate();
      socket = null;
    },
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
