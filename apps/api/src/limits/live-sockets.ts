import type { WebSocket } from '@fastify/websocket';
import type { ErrorBody } from '@qless/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { clientAddressKey } from './client-address.js';
import { LIMITS, maxOf } from './declarations.js';

/** Sends the error as the socket's one frame, then closes it with `code`. */
export function closeWithError(socket: WebSocket, code: number, body: ErrorBody): void {
  socket.send(JSON.stringify({ error: body }));
  socket.close(code, body.code);
}

/**
 * The one home of live sockets' admission (payment status, the board on the wall, a
 * visitor's turn): the origin check before the upgrade, and one count of open sockets per
 * client address in this process across all of them, since each holds memory and a
 * subscription whichever route opened it.
 */
/** How often a long-lived socket is pinged; one without a pong since the last ping is cut. */
export const KEEP_ALIVE_MS = 30_000;

export type LiveSocketKind = 'payment_status' | 'board' | 'turn';

export interface LiveSocketObserver {
  socketOpened(kind: LiveSocketKind): void;
  socketClosed(kind: LiveSocketKind, code: number): void;
}

export class LiveSockets {
  private readonly perAddress: number;
  private readonly byAddress = new Map<string, number>();
  /** Sockets kept alive, and whether each answered the last ping. */
  private readonly alive = new Map<WebSocket, boolean>();
  private pinger: NodeJS.Timeout | null = null;
  /** Told of each socket admitted and closed (metrics: open sockets per kind, close reasons). */
  observer: LiveSocketObserver | null = null;

  constructor(
    config: Config,
    private readonly allowedOrigins: () => readonly string[],
    private readonly keepAliveMs = KEEP_ALIVE_MS,
  ) {
    this.perAddress = maxOf('status-sockets', config);
  }

  /**
   * A `preValidation` hook: refuse cross-site pages before the upgrade (a socket is not
   * covered by CORS).
   */
  readonly checkOrigin = async (req: FastifyRequest, reply: FastifyReply) => {
    const origin = req.headers.origin;
    if (origin && !this.allowedOrigins().includes(origin)) {
      const body: ErrorBody = {
        code: 'ORIGIN_NOT_ALLOWED',
        message: 'This origin may not open live sockets.',
      };
      return reply.status(403).send(body);
    }
  };

  /**
   * Counts the socket against its client address until it closes; false (and the socket
   * closed with TOO_MANY_SOCKETS) when the address holds its maximum already.
   */
  admit(socket: WebSocket, ip: string, kind: LiveSocketKind = 'payment_status'): boolean {
    const address = clientAddressKey(ip);
    const open = this.byAddress.get(address) ?? 0;
    if (open >= this.perAddress) {
      const refusal = LIMITS['status-sockets'].refusal;
      closeWithError(socket, refusal.status, { code: refusal.code, message: refusal.message });
      return false;
    }
    this.byAddress.set(address, open + 1);
    const observer = this.observer;
    observer?.socketOpened(kind);
    socket.on('close', (code: number) => {
      observer?.socketClosed(kind, code);
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left > 0) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
    });
    return true;
  }

  /**
   * A board stays open all day and a turn for an hour: a ping every KEEP_ALIVE_MS keeps idle
   * proxies from cutting them, and a socket whose peer vanished (a TV unplugged, a phone out
   * of coverage) is cut at the next round, so its memory and subscription do not stay.
   */
  keepAlive(socket: WebSocket): void {
    this.alive.set(socket, true);
    socket.on('pong', () => {
      if (this.alive.has(socket)) this.alive.set(socket, true);
    });
    socket.on('close', () => {
      this.alive.delete(socket);
      if (this.alive.size === 0 && this.pinger) {
        clearInterval(this.pinger);
        this.pinger = null;
      }
    });
    if (!this.pinger) {
      this.pinger = setInterval(() => this.pingAll(), this.keepAliveMs);
      this.pinger.unref();
    }
  }

  private pingAll(): void {
    for (const [socket, answered] of this.alive) {
      if (!answered) {
        socket.terminate();
        continue;
      }
      this.alive.set(socket, false);
      socket.ping();
    }
  }
}
