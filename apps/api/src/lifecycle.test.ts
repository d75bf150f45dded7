import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { get, openRaw, slowPost, tryConnect } from '../test/support/drain-helpers.js';
import { Lifecycle } from './lifecycle.js';

/** A log that keeps its lines (pino's method shape is enough for the drain). */
function recordingLog() {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  const at =
    (level: string) =>
    (obj: Record<string, unknown>, msg = '') =>
      lines.push({ level, obj, msg });
  const log = { info: at('info'), error: at('error'), warn: at('warn') };
  return { lines, log: log as unknown as FastifyInstance['log'] };
}

describe('the drain on a bare app', () => {
  let app: FastifyInstance | null = null;
  afterEach(async () => {
    await app?.close().catch(() => undefined);
    app = null;
  });

  async function start(handled: string[]) {
    const made = Fastify();
    const lifecycle = new Lifecycle();
    lifecycle.attach(made);
    made.post('/api/v1/book', async (req) => {
      handled.push('book');
      return { got: req.body };
    });
    // Answers synchronously, as the health routes do.
    made.get('/api/v1/sync', (_req, reply) => {
      handled.push('sync');
      reply.send({ ok: true });
    });
    made.get('/api/v1/after', async () => {
      handled.push('after');
      return { ok: true };
    });
    made.get('/api/v1/tickets/:code', () => new Promise(() => {}));
    await made.listen({ host: '127.0.0.1', port: 0 });
    app = made;
    return { lifecycle, port: (made.server.address() as AddressInfo).port };
  }

  it('answers a request read before it, refuses new connections, never processes a request pipelined behind a close', async () => {
    const handled: string[] = [];
    const { lifecycle, port } = await start(handled);
    const slow = slowPost('/api/v1/book', { name: 'Ngono Marie' });
    const conn = await openRaw(port);
    conn.write(slow.head);
    await new Promise((r) => setTimeout(r, 50));
    const { log, lines } = recordingLog();
    const done = lifecycle.shutdown({
      signal: 'SIGTERM',
      timeoutMs: 5000,
      closeDatabase: async () => {},
      log,
    });
    expect(lifecycle.draining).toBe(true);
    expect(await tryConnect(port)).toBe('ECONNREFUSED');
    // The booking's end, then two requests pipelined behind it.
    conn.write(slow.rest + get('/api/v1/sync') + get('/api/v1/after'));
    await conn.closed;
    expect(await done).toBe(0);
    const [booked, sync] = conn.responses;
    expect(conn.responses).toHaveLength(2);
    expect(booked?.status).toBe(200);
    expect(booked?.headers.connection).not.toBe('close');
    expect(sync?.headers.connection).toBe('close');
    // Read after an answer that said close: not processed (its client sends it again).
    expect(handled.sort()).toEqual(['book', 'sync']);
    // Sockets, requests and background work drain side by side, between these.
    const phases = lines.map((l) => l.obj.phase).filter(Boolean);
    expect(phases[0]).toBe('draining');
    expect(phases.slice(1, 4).sort()).toEqual(['background', 'requests', 'sockets']);
    expect(phases.slice(4)).toEqual(['app', 'database']);
  });

  it('past the bound, says what was still open (no token) and resolves 1', async () => {
    const { lifecycle, port } = await start([]);
    const conn = await openRaw(port);
    conn.write(get('/api/v1/tickets/SECRETCODE?k=key'));
    await new Promise((r) => setTimeout(r, 50));
    const { log, lines } = recordingLog();
    const begun = performance.now();
    const code = await lifecycle.shutdown({
      signal: 'SIGTERM',
      timeoutMs: 1000,
      closeDatabase: async () => {},
      log,
    });
    expect(code).toBe(1);
    expect(performance.now() - begun).toBeLessThan(1500);
    const timedOut = lines.find((l) => l.level === 'error');
    expect(timedOut?.obj).toMatchObject({
      phasesOpen: ['requests'],
      requestsInFlight: { 'GET /api/v1/tickets': 1 },
    });
    expect(JSON.stringify(lines)).not.toContain('SECRETCODE');
    conn.destroy();
  });
});
