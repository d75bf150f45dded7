import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { expect, vi } from 'vitest';
import { readText } from './read-body.js';
import type { startServer } from './server-process.js';

type ServerProcess = ReturnType<typeof startServer>;

/** Polls GET /api/v1/health/ready until 200 (the process is up and its database answers). */
export async function waitReady(base: string, server: ServerProcess): Promise<void> {
  await vi.waitFor(
    async () => {
      const res = await fetch(`${base}/api/v1/health/ready`).catch(() => null);
      expect(res?.status, `the server did not start:\n${server.output()}`).toBe(200);
    },
    { timeout: 60_000, interval: 200 },
  );
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 connection driven by hand: a request can be sent in pieces (a slow client)
 * and others pipelined behind it; the answers are parsed as they come (Content-Length
 * bodies only, which is what the API sends).
 */
export interface RawConnection {
  write(text: string): void;
  responses: RawResponse[];
  /** Resolves once `n` answers have arrived. */
  waitFor(n: number): Promise<RawResponse[]>;
  /** Resolves when the server has closed the connection. */
  closed: Promise<void>;
  destroy(): void;
}

export function openRaw(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    const responses: RawResponse[] = [];
    const waiters: (() => void)[] = [];
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [statusLine = '', ...lines] = buffer
          .subarray(0, end)
          .toString('latin1')
          .split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const at = line.indexOf(':');
          headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
        buffer = buffer.subarray(end + 4 + length);
        responses.push({ status: Number(statusLine.split(' ')[1]), headers, body });
        for (const w of waiters.splice(0)) w();
      }
    });
    socket.once('error', reject);
    socket.once('connect', () =>
      resolve({
        write: (text) => socket.write(text),
        responses,
        closed,
        destroy: () => socket.destroy(),
        waitFor: async (n) => {
          while (responses.length < n) {
            const more = new Promise<void>((r) => waiters.push(r));
            const gone = closed.then(() => {
              throw new Error(`connection closed after ${responses.length} of ${n} answers`);
            });
            await Promise.race([more, gone]);
          }
          return responses;
        },
      }),
    );
  });
}

/** Resolves with the error code of a new TCP connection to `port` (null: it connected). */
export function tryConnect(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(null);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

/**
 * An SMS gateway speaking Africa's Talking's answer (see africastalking-fake.ts) that can
 * hold its first request until the test releases it: a send in flight when SIGTERM comes.
 */
export interface HeldGateway {
  baseUrl: string;
  username: string;
  apiKey: string;
  /** Numbers sent to, in order of arrival (the held one included). */
  received: string[];
  release(): void;
  close(): Promise<void>;
}

export async function startHeldGateway(options: { holdFirst: boolean }): Promise<HeldGateway> {
  const received: string[] = [];
  let holding = options.holdFirst;
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  const server = createServer((req, res) => {
    void (async () => {
      const to = new URLSearchParams(await readText(req)).get('to') ?? '';
      received.push(to);
      if (holding) {
        holding = false;
        await held;
      }
      const recipient = {
        statusCode: 101,
        number: to,
        status: 'Success',
        cost: 'XAF 20.0000',
        messageId: `ATXid_${randomBytes(8).toString('hex')}`,
        messageParts: 1,
      };
      res
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ SMSMessageData: { Message: 'Sent', Recipients: [recipient] } }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    username: 'qless-test',
    apiKey: `atsk_${randomBytes(16).toString('hex')}`,
    received,
    release: () => release(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A POST's head and its JSON body in two halves: the second half goes after the signal. */
export function slowPost(path: string, body: unknown): { head: string; rest: string } {
  const json = JSON.stringify(body);
  const half = Math.floor(json.length / 2);
  const head =
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json.slice(0, half)}`;
  return { head, rest: json.slice(half) };
}

export const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
