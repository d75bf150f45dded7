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

  it('with an idle grace, answers a POST written on a kept-alive connection after the signal, then closes the idle ones', async () => {
    const handled: string[] = [];
    const { lifecycle, port } = await start(handled);
    // A proxy's pooled connection: used once, then idle.
    const pooled = await openRaw(port);
    pooled.write(get('/api/v1/sync'));
    await pooled.waitFor(1);
    const unused = await openRaw(port);
    const { log, lines } = recordingLog();
    const done = lifecycle.shutdown({
      signal: 'SIGTERM',
      timeoutMs: 5000,
      idleGraceMs: 1000,
      closeDatabase: async () => {},
      log,
    });
    expect(await tryConnect(port)).toBe('ECONNREFUSED');
    // The proxy reuses its idle connection for a POST just after the signal: answered, and
    // told that the connection ends (never reset: a POST cannot be sent to another process).
    await new Promise((r) => setTimeout(r, 200));
    const post = slowPost('/api/v1/book', { name: 'Ngono Marie' });
    pooled.write(post.head + post.rest);
    const [, booked] = await pooled.waitFor(2);
    expect(booked?.status).toBe(200);
    expect(booked?.headers.connection).toBe('close');
    await pooled.closed;
    // The connection never used again is closed by the server when the grace ends.
    const begun = performance.now();
    await unused.closed;
    expect(performance.now() - begun).toBeGreaterThan(300);
    expect(await done).toBe(0);
    expect(handled).toEqual(['sync', 'book']);
    expect(lines.find((l) => l.obj.phase === 'idle')?.obj).toMatchObject({ closed: 1 });
  });

  it('without a grace, closes an idle kept-alive connection at the signal', async () => {
    const { lifecycle, port } = await start([]);
    const pooled = await openRaw(port);
    pooled.write(get('/api/v1/sync'));
    await pooled.waitFor(1);
    const { log } = recordingLog();
    const done = lifecycle.shutdown({
      signal: 'SIGTERM',
      timeoutMs: 5000,
      closeDatabase: async () => {},
      log,
    });
    const closedAt = await Promise.race([
      pooled.closed.then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('open'), 500)),
    ]);
    expect(closedAt).toBe('closed');
    expect(await done).toBe(0);
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
