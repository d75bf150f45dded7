// engines: postgres and pglite — a lost connection, a cut commit: each engine fails its own way
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ErrorBody } from '@qless/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { freezableProxy, silentServer } from '../support/tcp-fakes.js';
import { createTestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';

/**
 * A catalogue read the read cache has never seen, so it goes to the database: the list
 * itself may be answered from memory (modules/catalog/read-cache.ts).
 */
let searches = 0;
const uncachedRead = () => {
  searches += 1;
  return `/api/v1/organizations?q=fault${searches}`;
};

/** Runs `fn` and returns what it gave with how long it took. */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

/**
 * A web build of our own: an index.html with the outlet, and a server bundle whose page
 * asks the API for two uncached answers, one after the other.
 */
async function fakeWebBuild(): Promise<{ dist: string; remove(): Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'qless-fake-web-'));
  const dist = path.join(root, 'dist');
  const ssr = path.join(root, 'dist-ssr');
  await mkdir(dist);
  await mkdir(ssr);
  await writeFile(
    path.join(dist, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Qless</title></head><body><div id="root"><!--app-html--><!--/app-html--></div></body></html>',
  );
  await writeFile(path.join(ssr, 'package.json'), '{"type":"module"}');
  await writeFile(
    path.join(ssr, 'entry-server.js'),
    `let n = 0;
export async function plan(pathname, search, get) {
  n += 1;
  await get('/api/v1/organizations?q=page' + n + 'a');
  await get('/api/v1/organizations?q=page' + n + 'b');
  return { status: 200, data: { api: {} }, module: null };
}
export async function render() {
  return { html: '<p>rendered</p>', title: 'Organizations' };
}
`,
  );
  return { dist, remove: () => rm(root, { recursive: true, force: true }) };
}

describe('a database that stops answering', () => {
  // Not useStack: the app is built on a wrapper of the database whose ping never answers.
  let t: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestDatabase(inject('engine'));
    // The same database, except that its ping never comes back (a frozen server).
    const hanging: Database = { ...t.database, ping: () => new Promise<boolean>(() => {}) };
    ({ app } = await createTestApp(hanging));
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await t?.cleanup();
  });

  it('GET /health answers 503 "degraded" within 2 s instead of hanging', async () => {
    const { value: res, ms } = await timed(() => app.inject({ url: '/api/v1/health' }));
    expect({ status: res.statusCode, fast: ms < 2000 }).toEqual({ status: 503, fast: true });
    expect(res.json()).toMatchObject({ status: 'degraded', database: { reachable: false } });
  });
});

// PostgreSQL's own faults (a proxy in front of its URL, backends to kill): not useStack, and run
// by the PostgreSQL project only (the PGlite project ran the same tests on PostgreSQL again).
describe.runIf(inject('engine') === 'postgres')('PostgreSQL link faults', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('postgres');
  }, 60_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  it('opening a server that accepts connections but never answers fails within the connect timeout, naming it', async () => {
    const silent = await silentServer();
    try {
      const { value: err, ms } = await timed(() =>
        openDatabase({
          databaseUrl: `postgres://postgres:secret@127.0.0.1:${silent.port}/qless`,
          dataDir: null,
          timeouts: { connectMs: 500 },
        }).then(
          () => null,
          (e: unknown) => e as Error,
        ),
      );
      expect(ms).toBeLessThan(3000);
      expect(err?.message).toMatch(
        new RegExp(`^Cannot reach the database at 127\\.0\\.0\\.1:${silent.port}: .*timeout`),
      );
      expect(err?.message).not.toContain('secret');
    } finally {
      await silent.close();
    }
  });

  it('a database that freezes while running: routes 503 DATABASE_UNAVAILABLE and /health 503 in time, then recover by themselves', async () => {
    const target = new URL(t.url ?? '');
    const proxy = await freezableProxy({ host: target.hostname, port: Number(target.port) });
    const viaProxy = new URL(target);
    viaProxy.port = String(proxy.port);
    const database = await openDatabase({
      databaseUrl: viaProxy.toString(),
      dataDir: null,
      timeouts: { connectMs: 1000, statementMs: 1000 },
    });
    const { app } = await createTestApp(database, { env: { READ_CACHE_HEARTBEAT_MS: '300' } });
    try {
      expect((await app.inject({ url: '/api/v1/organizations' })).statusCode).toBe(200);
      proxy.freeze();
      const route = await timed(() => app.inject({ url: uncachedRead() }));
      const health = await timed(() => app.inject({ url: '/api/v1/health' }));
      const figures = {
        route: route.value.statusCode,
        code: (route.value.json() as ErrorBody).code,
        routeWithin4s: route.ms < 4000,
        health: health.value.statusCode,
        healthWithin2s: health.ms < 2000,
      };
      expect(figures).toEqual({
        route: 503,
        code: 'DATABASE_UNAVAILABLE',
        routeWithin4s: true,
        health: 503,
        healthWithin2s: true,
      });
      // The listener's connection is frozen too, not closed: the heartbeat notices, and the
      // list kept in memory is no longer served (a write elsewhere would not be heard).
      expect(app.readCache.serving).toBe(false);
      expect((await app.inject({ url: '/api/v1/organizations' })).statusCode).toBe(503);
      proxy.thaw();
      const after = await app.inject({ url: '/api/v1/organizations' });
      expect(after.statusCode, after.body).toBe(200);
      expect((await app.inject({ url: '/api/v1/health' })).statusCode).toBe(200);
      await expect.poll(() => app.readCache.serving, { timeout: 5000, interval: 50 }).toBe(true);
    } finally {
      proxy.thaw();
      await app.close();
      await database.close();
      await proxy.close();
    }
  }, 30_000);

  // Issue 18, point 13: with the default timeouts a stalled database held requests 5–11 s.
  it('with the default timeouts, a stalled database gives 503 within about 2 s, also to requests queued for a connection', async () => {
    const target = new URL(t.url ?? '');
    const proxy = await freezableProxy({ host: target.hostname, port: Number(target.port) });
    const viaProxy = new URL(target);
    viaProxy.port = String(proxy.port);
    const database = await openDatabase({ databaseUrl: viaProxy.toString(), dataDir: null });
    const { app } = await createTestApp(database);
    try {
      expect((await app.inject({ url: '/api/v1/organizations' })).statusCode).toBe(200);
      proxy.freeze();
      // More requests than the pool has connections: some wait for one.
      const answers = await Promise.all(
        Array.from({ length: 14 }, () => timed(() => app.inject({ url: uncachedRead() }))),
      );
      const slowest = Math.max(...answers.map((a) => a.ms));
      expect({
        statuses: [...new Set(answers.map((a) => a.value.statusCode))],
        codes: [...new Set(answers.map((a) => (a.value.json() as ErrorBody).code))],
        within2500ms: slowest < 2500,
      }).toEqual({ statuses: [503], codes: ['DATABASE_UNAVAILABLE'], within2500ms: true });
      proxy.thaw();
      const after = await app.inject({ url: '/api/v1/organizations?q=after' });
      expect(after.statusCode, after.body).toBe(200);
    } finally {
      proxy.thaw();
      await app.close();
      await database.close();
      await proxy.close();
    }
  }, 30_000);

  it("a server-rendered page of a stalled database is a 503 saying so, with Retry, in the reader's language, within about 2 s", async () => {
    const web = await fakeWebBuild();
    const target = new URL(t.url ?? '');
    const proxy = await freezableProxy({ host: target.hostname, port: Number(target.port) });
    const viaProxy = new URL(target);
    viaProxy.port = String(proxy.port);
    const database = await openDatabase({ databaseUrl: viaProxy.toString(), dataDir: null });
    const { app } = await createTestApp(database, { env: { WEB_DIST_DIR: web.dist } });
    try {
      const up = await app.inject({ url: '/organizations', headers: { accept: 'text/html' } });
      expect(up.statusCode).toBe(200);
      expect(up.body).toContain('<p>rendered</p>');
      proxy.freeze();
      const page = await timed(() =>
        app.inject({
          url: '/organizations?city=Douala',
          headers: { accept: 'text/html', 'accept-language': 'fr-CM,fr;q=0.9' },
        }),
      );
      expect({
        status: page.value.statusCode,
        within2500ms: page.ms < 2500,
        retryAfter: page.value.headers['retry-after'],
      }).toEqual({ status: 503, within2500ms: true, retryAfter: '5' });
      expect(page.value.body).toContain('<html lang="fr"');
      expect(page.value.body).toContain('Le service est momentanément indisponible');
      expect(page.value.body).toContain('href="/organizations?city=Douala">Réessayer</a>');
      expect(page.value.body).not.toContain('<p>rendered</p>');
      proxy.thaw();
      const back = await app.inject({ url: '/organizations', headers: { accept: 'text/html' } });
      expect(back.statusCode).toBe(200);
    } finally {
      proxy.thaw();
      await app.close();
      await database.close();
      await proxy.close();
      await web.remove();
    }
  }, 30_000);

  // A process starved of CPU (a busy 2-core machine in a rolling deploy) ran its timers before
  // reading the answers that had arrived meanwhile, and took its own stall for the database's.
  it("a process whose own event loop was blocked past the stall bound does not take that for the database's stall", async () => {
    const database = await openDatabase({
      databaseUrl: t.url ?? '',
      dataDir: null,
      timeouts: { stallMs: 300 },
    });
    try {
      const answer = sql<{ ok: number }>`select 1 as ok from pg_sleep(0.05)`.execute(database.db);
      // The statement is on the server; its answer arrives while this process computes.
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Blocked in the check phase: the loop's timers run next, before its I/O is read.
      await new Promise((resolve) => setImmediate(resolve));
      const until = performance.now() + 600;
      while (performance.now() < until) {
        // busy: no I/O is read, no timer runs
      }
      expect((await answer).rows).toEqual([{ ok: 1 }]);
    } finally {
      await database.close();
    }
  });

  it('a request waiting on a lock while the database answers others is not cut short', async () => {
    const { app } = await createTestApp(t.database);
    const admin = new pg.Client({ connectionString: t.url ?? '' });
    await admin.connect();
    try {
      await admin.query('begin');
      await admin.query('lock table organizations in access exclusive mode');
      const pending = timed(() => app.inject({ url: uncachedRead() }));
      // 2.5 s of other requests answered meanwhile: busy, not stalled.
      const until = performance.now() + 2500;
      while (performance.now() < until) {
        expect((await app.inject({ url: '/api/v1/health' })).statusCode).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await admin.query('rollback');
      const res = await pending;
      expect(res.value.statusCode, res.value.body).toBe(200);
      expect(res.ms).toBeGreaterThan(2400);
    } finally {
      await admin.end();
      await app.close();
    }
  }, 30_000);

  it('connections killed mid-request (pg_terminate_backend): 503 DATABASE_UNAVAILABLE, never 500, then the next request succeeds', async () => {
    const { app } = await createTestApp(t.database);
    const admin = new pg.Client({ connectionString: t.url ?? '' });
    await admin.connect();
    try {
      expect((await app.inject({ url: '/api/v1/organizations' })).statusCode).toBe(200);
      // Hold the table so the request's query is in flight on the server when it is killed.
      await admin.query('begin');
      await admin.query('lock table organizations in access exclusive mode');
      const pending = app.inject({ url: uncachedRead() });
      await vi.waitFor(
        async () => {
          const { rows } = await admin.query(
            `select 1 from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
          );
          if (rows.length === 0) throw new Error('the request does not wait on the lock yet');
        },
        { timeout: 5000, interval: 50 },
      );
      const { rows: killed } = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`,
      );
      const res = await pending;
      await admin.query('rollback');
      expect(killed.length).toBeGreaterThan(0);
      expect({ status: res.statusCode, code: (res.json() as ErrorBody).code }).toEqual({
        status: 503,
        code: 'DATABASE_UNAVAILABLE',
      });
      // The pool drops the killed idle connections as their errors arrive: on a loaded
      // machine the very next request may still meet one (a 503, never a 500), the one after
      // it does not.
      await expect
        .poll(async () => (await app.inject({ url: '/api/v1/organizations' })).statusCode, {
          timeout: 5000,
          interval: 100,
        })
        .toBe(200);
    } finally {
      await admin.end();
      await app.close();
    }
  }, 30_000);
});
