import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { loadConfig } from '../config.js';
import { LiveSockets } from './live-sockets.js';

describe('live sockets kept alive', () => {
  let server: WebSocketServer | null = null;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  });

  async function serve(sockets: LiveSockets): Promise<string> {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    server.on('connection', (socket) => {
      sockets.admit(socket, '10.0.0.1');
      sockets.keepAlive(socket);
    });
    await new Promise((resolve) => server?.once('listening', resolve));
    return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('cuts a peer that stopped answering pings, and keeps one that answers', async () => {
    const sockets = new LiveSockets(loadConfig({}), () => [], 100);
    const url = await serve(sockets);
    const silent = new WebSocket(url, { autoPong: false });
    const answering = new WebSocket(url);
    const silentClosed = new Promise<number>((resolve) => silent.on('close', resolve));
    let answeringClosed = false;
    answering.on('close', () => {
      answeringClosed = true;
    });
    const started = Date.now();
    // 1006: the server terminated it (no close frame), two rounds after its last pong.
    expect(await silentClosed).toBe(1006);
    expect(Date.now() - started).toBeLessThan(2_000);
    await new Promise((r) => setTimeout(r, 400));
    expect(answeringClosed).toBe(false);
    answering.close();
  });
});
