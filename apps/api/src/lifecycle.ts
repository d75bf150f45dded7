/**
 * The process's life after SIGTERM (decision 028): a deploy drops nothing.
 *
 * `shutdown` drains in phases, each logged with its duration:
 *   1. draining: readiness answers 503 at once; the listener closes (a new connection is
 *      refused, so a proxy tries the next upstream before sending anything), idle keep-alive
 *      connections are closed (after `idleGraceMs`, see below), and each busy connection's
 *      last response says `Connection: close` (a request already read is answered, never
 *      reset; as RFC 9112 §9.6 asks, a request pipelined behind a response that said close
 *      is not processed at all);
 *   1b. idle (with `idleGraceMs` > 0, behind a proxy): idle kept-alive connections stay open
 *      for that long, or until none is left; a request the proxy writes on one meanwhile is
 *      answered with `Connection: close`. Closing one at the instant the proxy reuses it
 *      resets a request the proxy cannot retry when it is a POST (decision 028, found by the
 *      topology test); a proxy whose upstream keep-alive timeout is shorter than the grace
 *      has closed its idle connections itself by the end of it;
 *   2. sockets: every live socket (payment status, board, turn) is closed with 1012 "Service
 *      Restart", so browsers reconnect at once to another process and get the current state;
 *   3. requests: the requests in flight finish;
 *   4. background (at the same time as 2 and 3): the periodic sweeps stop, each handing back
 *      what it claimed and did not finish (outbox leases, reconciler claims);
 *   5. app: the app closes (LISTEN connections, providers);
 *   6. database: the pool closes.
 * All within `timeoutMs`; past it, what was still open is logged and the exit code is 1.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { WebSocket } from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** Close code and reason told to every live socket: "Service Restart" (RFC 6455 registry). */
export const RESTART_CLOSE_CODE = 1012;
export const RESTART_CLOSE_REASON = 'service restart';
/** How long sockets get to finish their close handshake before they are cut. */
const SOCKET_CLOSE_WAIT_MS = 2_000;
/** How often the idle phase looks whether any idle connection is left. */
const IDLE_POLL_MS = 50;
/** Seconds a load balancer is told to wait before asking a draining process again. */
export const DRAINING_RETRY_AFTER_S = 5;

/** How many claims a background task handed back, when its stop says so. */
function handedBackBy(report: unknown): number | undefined {
  const n = (report as { handedBack?: unknown } | undefined)?.handedBack;
  return typeof n === 'number' ? n : undefined;
}

/** Counters for metrics (helper C's /metrics reads them; never reset). */
export interface LifecycleEvents {
  /** Live sockets closed with 1012 so that their browser reconnects elsewhere. */
  socketsClosedForRestart: number;
  /** Outbox messages and reconciler claims handed back to other processes. */
  claimsHandedBack: number;
}

type State = 'running' | 'draining' | 'stopped';

/** A path with nothing after its area: no token, code or query ever reaches a log line. */
function coarsePath(url: string | undefined): string {
  const path = (url ?? '').split('?')[0] ?? '';
  const parts = path.split('/');
  return path.startsWith('/api/v1/') ? parts.slice(0, 4).join('/') : parts.slice(0, 2).join('/');
}

function within<T>(work: Promise<T>, ms: number): Promise<T | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, ms));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export class Lifecycle {
  private state: State = 'running';
  readonly events: LifecycleEvents = { socketsClosedForRestart: 0, claimsHandedBack: 0 };
  private server: Server | null = null;
  private app: FastifyInstance | null = null;
  private readonly background: { name: string; stop: () => Promise<unknown> }[] = [];
  /** Requests read and not yet answered, per connection, in the order they arrived. */
  private readonly inFlight = new Map<Socket, ServerResponse[]>();
  private readonly connections = new Set<Socket>();
  /** Connections whose answer saying `Connection: close` is written: nothing more is read. */
  private readonly closing = new WeakSet<Socket>();
  /** Requests pipelined behind such an answer: never processed (the client sends them again). */
  private readonly refused = new WeakSet<IncomingMessage>();
  private settled: (() => void) | null = null;
  /** Phases begun and not finished: what a timeout reports as still open. */
  private readonly open = new Set<string>();

  /** True from the signal on: readiness answers 503 `draining`. */
  get draining(): boolean {
    return this.state !== 'running';
  }

  /** Requests in flight in this process (for metrics and the shutdown log). */
  get requestsInFlight(): number {
    let n = 0;
    for (const list of this.inFlight.values()) n += list.length;
    return n;
  }

  /**
   * Follows the app's connections and requests from the start (buildApp calls it before
   * any route): the drain needs to know what is in flight and on which connection.
   */
  attach(app: FastifyInstance): void {
    this.app = app;
    const server = app.server;
    this.server = server;
    server.on('connection', (socket: Socket) => {
      this.connections.add(socket);
      socket.once('close', () => {
        this.connections.delete(socket);
        this.inFlight.delete(socket);
        this.checkSettled();
      });
    });
    // Before Fastify's own listener: a handler may answer synchronously.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
      this.track(req, res),
    );
    app.addHook('onRequest', (req, reply, done) => {
      if (this.refused.has(req.raw)) reply.hijack();
      done();
    });
  }

  /**
   * A periodic task the drain stops (at once, with the requests); its stop may resolve with
   * `{ handedBack }`, the claims it gave back to other processes.
   */
  addBackground(name: string, stop: () => Promise<unknown>): void {
    this.background.push({ name, stop });
  }

  private track(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const list = this.inFlight.get(socket) ?? [];
    list.push(res);
    this.inFlight.set(socket, list);
    if (this.draining) {
      if (this.closing.has(socket)) this.refused.add(req);
      else this.closeIfLast(socket, res);
    }
    res.once('close', () => {
      const now = this.inFlight.get(socket);
      if (now) {
        const i = now.indexOf(res);
        if (i >= 0) now.splice(i, 1);
        if (now.length === 0) this.inFlight.delete(socket);
      }
      this.checkSettled();
    });
  }

  /**
   * Decided when the answer's head is written: the connection's last known request gets
   * `Connection: close`; one answered while another waits behind it on the connection
   * (pipelined) does not, so that the other is answered too.
   */
  private closeIfLast(socket: Socket, res: ServerResponse): void {
    if (res.headersSent) return;
    const writeHead = res.writeHead;
    res.writeHead = ((...args: Parameters<ServerResponse['writeHead']>) => {
      if (this.inFlight.get(socket)?.at(-1) === res) {
        res.setHeader('connection', 'close');
        this.closing.add(socket);
      }
      return writeHead.apply(res, args);
    }) as ServerResponse['writeHead'];
  }

  private checkSettled(): void {
    if (this.settled && this.requestsInFlight === 0) {
      const done = this.settled;
      this.settled = null;
      done();
    }
  }

  /**
   * Closes the listener. Node's `server.close()` also closes every idle kept-alive connection
   * at once; with `keepIdle` those stay open (the idle phase closes them).
   */
  private stopListening(keepIdle: boolean): void {
    const server = this.server;
    if (!server) return;
    if (!keepIdle) {
      server.close();
      return;
    }
    const closeIdle = server.closeIdleConnections;
    server.closeIdleConnections = () => {};
    try {
      server.close();
    } finally {
      server.closeIdleConnections = closeIdle;
    }
  }

  /** Open connections with no request in flight (WebSocket ones until they close). */
  private idleConnections(): number {
    let n = 0;
    for (const socket of this.connections) if (!this.inFlight.has(socket)) n += 1;
    return n;
  }

  /** Sockets upgraded to WebSocket (payment status, boards, turns). */
  private liveSockets(): Set<WebSocket> {
    return (this.app?.websocketServer?.clients as Set<WebSocket> | undefined) ?? new Set();
  }

  private tellToReconnect(socket: WebSocket): void {
    if (socket.readyState !== socket.OPEN) return;
    socket.close(RESTART_CLOSE_CODE, RESTART_CLOSE_REASON);
    this.events.socketsClosedForRestart += 1;
  }

  /**
   * Drains and closes everything (see the top of this file); resolves with the exit code:
   * 0 when all of it finished within `timeoutMs`, 1 otherwise (what was open is logged).
   */
  async shutdown(options: {
    signal: string;
    timeoutMs: number;
    closeDatabase: () => Promise<void>;
    log: FastifyBaseLogger;
    /** How long idle kept-alive connections stay open after the listener closes (1b). */
    idleGraceMs?: number;
  }): Promise<0 | 1> {
    const { log, timeoutMs } = options;
    const idleGraceMs = Math.max(0, options.idleGraceMs ?? 0);
    if (this.state !== 'running') return 1;
    this.state = 'draining';
    const started = performance.now();
    const deadline = started + timeoutMs;
    const left = () => deadline - performance.now();

    const phase = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
      this.open.add(name);
      try {
        return await work();
      } finally {
        this.open.delete(name);
      }
    };
    const ms = (since: number) => Math.round(performance.now() - since);

    const run = async () => {
      let t = performance.now();
      this.stopListening(idleGraceMs > 0);
      for (const [socket, list] of this.inFlight) {
        for (const res of list) this.closeIfLast(socket, res);
      }
      log.info(
        {
          signal: options.signal,
          phase: 'draining',
          ms: ms(t),
          requestsInFlight: this.requestsInFlight,
          liveSockets: this.liveSockets().size,
          timeoutMs,
        },
        idleGraceMs > 0
          ? 'shutdown: draining; readiness 503, listener closed, idle connections kept for the grace'
          : 'shutdown: draining; readiness 503, listener closed, idle connections closed',
      );
      const idle = phase('idle', async () => {
        if (idleGraceMs <= 0) return;
        const s = performance.now();
        const until = s + Math.min(idleGraceMs, left());
        while (this.idleConnections() > 0 && performance.now() < until) {
          await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
        }
        const closed = this.idleConnections();
        this.server?.closeIdleConnections();
        // Node leaves a connection that never sent a byte (a preconnect) open: closed here.
        for (const socket of this.connections) {
          if (!this.inFlight.has(socket) && socket.bytesRead === 0) socket.destroy();
        }
        log.info(
          { phase: 'idle', ms: ms(s), closed },
          'shutdown: idle keep-alive connections closed after the grace',
        );
      });
      const sockets = phase('sockets', async () => {
        const s = performance.now();
        const wss = this.app?.websocketServer;
        // A socket opened on a kept-alive connection during the drain is told at once too.
        wss?.on('connection', (socket: WebSocket) => this.tellToReconnect(socket));
        const all = [...this.liveSockets()];
        for (const socket of all) this.tellToReconnect(socket);
        const closed = Promise.all(
          all.map((socket) =>
            socket.readyState === socket.CLOSED
              ? undefined
              : new Promise<void>((resolve) => socket.once('close', () => resolve())),
          ),
        );
        const outcome = await within(closed, Math.min(SOCKET_CLOSE_WAIT_MS, left()));
        let cut = 0;
        if (outcome === 'late') {
          for (const socket of all) {
            if (socket.readyState !== socket.CLOSED) {
              socket.terminate();
              cut += 1;
            }
          }
        }
        log.info(
          { phase: 'sockets', ms: ms(s), toldToReconnect: all.length, cut },
          'shutdown: live sockets closed with 1012 (reconnect elsewhere)',
        );
      });
      const requests = phase('requests', async () => {
        // Requests written on idle connections during the grace are answered too.
        await idle;
        const s = performance.now();
        const before = this.requestsInFlight;
        if (before > 0) {
          await new Promise<void>((resolve) => {
            this.settled = resolve;
            this.checkSettled();
          });
        }
        log.info({ phase: 'requests', ms: ms(s), finished: before }, 'shutdown: requests finished');
      });
      const background = phase('background', async () => {
        const s = performance.now();
        const tasks: Record<string, { ms: number; handedBack?: number }> = {};
        await Promise.all(
          this.background.map(async ({ name, stop }) => {
            const b = performance.now();
            this.open.add(`background:${name}`);
            const report = await stop();
            this.open.delete(`background:${name}`);
            const handedBack = handedBackBy(report);
            if (handedBack) this.events.claimsHandedBack += handedBack;
            tasks[name] = { ms: ms(b), ...(handedBack !== undefined ? { handedBack } : {}) };
          }),
        );
        log.info(
          { phase: 'background', ms: ms(s), tasks },
          'shutdown: periodic work stopped, unfinished claims handed back',
        );
      });
      await Promise.all([sockets, requests, background]);
      t = performance.now();
      await phase('app', () => this.app?.close() ?? Promise.resolve());
      log.info({ phase: 'app', ms: ms(t) }, 'shutdown: app closed (LISTEN connections, providers)');
      t = performance.now();
      await phase('database', options.closeDatabase);
      log.info({ phase: 'database', ms: ms(t) }, 'shutdown: database pool closed');
    };

    const outcome = await within(
      run().then(
        () => 'done' as const,
        (err: unknown) => {
          log.error({ err }, 'shutdown: error during shutdown');
          return 'failed' as const;
        },
      ),
      timeoutMs,
    );
    this.state = 'stopped';
    if (outcome === 'done') {
      log.info({ ms: ms(started), events: this.events }, 'shutdown: done, exiting 0');
      return 0;
    }
    if (outcome === 'late') log.error(this.stillOpen(timeoutMs), 'shutdown: timed out; exiting 1');
    return 1;
  }

  /** What a timed-out shutdown leaves behind: never a token, a query or an address. */
  private stillOpen(timeoutMs: number) {
    const requests: Record<string, number> = {};
    for (const list of this.inFlight.values()) {
      for (const res of list) {
        const req = (res as ServerResponse & { req?: IncomingMessage }).req;
        const key = `${req?.method ?? '?'} ${coarsePath(req?.url)}`;
        requests[key] = (requests[key] ?? 0) + 1;
      }
    }
    let sockets = 0;
    for (const s of this.liveSockets()) if (s.readyState !== s.CLOSED) sockets += 1;
    return {
      timeoutMs,
      phasesOpen: [...this.open],
      requestsInFlight: requests,
      liveSockets: sockets,
      connections: this.connections.size,
    };
  }
}
