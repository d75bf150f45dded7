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
export class LiveSockets {
  private readonly perAddress: number;
  private readonly byAddress = new Map<string, number>();

  constructor(
    config: Config,
    private readonly allowedOrigins: () => readonly string[],
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
  admit(socket: WebSocket, ip: string): boolean {
    const address = clientAddressKey(ip);
    const open = this.byAddress.get(address) ?? 0;
    if (open >= this.perAddress) {
      const refusal = LIMITS['status-sockets'].refusal;
      closeWithError(socket, refusal.status, { code: refusal.code, message: refusal.message });
      return false;
    }
    this.byAddress.set(address, open + 1);
    socket.on('close', () => {
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left > 0) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
    });
    return true;
  }
}
