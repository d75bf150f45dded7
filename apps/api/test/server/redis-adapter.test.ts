/**
 * The Redis adapter when Redis goes away (decision 033): a redis-server of this file's own,
 * on a free port, killed and started again. The same suite as PostgreSQL's runs with Redis
 * in the `api-redis` project; this file is about what that suite cannot do: lose Redis.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { NotifyRelay, RELAY_LOST, RedisFanout } from '../../src/redis/redis-fanout.js';
import { openRedis, type RedisLink } from '../../src/redis/redis-link.js';
import { useStack } from '../support/app-fixture.js';
import { initiateBody } from '../support/fixtures.js';
import { NO_LIMITS } from '../support/payment-helpers.js';
import { createTestApp } from '../support/test-app.js';

function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  await vi.waitFor(
    () =>
      new Promise<void>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve();
        });
        socket.on('error', reject);
      }),
    { timeout: 10_000, interval: 50 },
  );
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const log = { warn: () => undefined, info: () => undefined };

const contact = { user_name: 'Mballa Paul', user_email: 'paul@example.cm', message: 'Hello.' };

describe.skipIf(!hasRedisServer())('Redis away (decision 033)', () => {
  const s = useStack({ env: NO_LIMITS });
  let port: number;
  let redis: ChildProcess;
  let url: string;
  const apps: FastifyInstance[] = [];
  const databases: Database[] = [];
  const links: RedisLink[] = [];

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    url = `redis://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const link of links) await link.close();
    for (const database of databases) await database.close();
    await kill(redis);
  });

  /** An app as another process would be: its own pool on the same database. */
  const process = async (env: Record<string, string>) => {
    let database = s.database;
    if (s.url) {
      database = await openDatabase({ databaseUrl: s.url, dataDir: null });
      databases.push(database);
    }
    const { app } = await createTestApp(database, {
      clock: s.clock,
      env: { ...NO_LIMITS, RATE_LIMIT_CONTACT_PER_IP: '3', ...env },
    });
    apps.push(app);
    return app;
  };
  const sendContact = (app: FastifyInstance, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/api/v1/contact', remoteAddress, payload: contact });
  const countedInDatabase = async () =>
    Number(
      (
        await sql<{ n: number }>`select coalesce(sum(count), 0) as n from rate_counters
          where key like ${'%/api/v1/contact%'}`.execute(s.database.db)
      ).rows[0]?.n,
    );

  it('starts with nothing listening at REDIS_URL and counts in the database', async () => {
    const app = await process({
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      REDIS_PREFIX: 'qt-none:',
    });
    const codes: number[] = [];
    for (let i = 0; i < 4; i += 1) codes.push((await sendContact(app, '198.51.100.40')).statusCode);
    expect(codes).toEqual([201, 201, 201, 429]);
    // The route store counts every hit, the refused one too.
    expect(await countedInDatabase()).toBe(4);
    // The cache hears nothing, so it serves nothing from memory (reads go to the database).
    await vi.waitFor(() => expect(app.readCache.serving).toBe(false));
  });

  it('limits and fan-out in Redis; Redis killed: limits count in the database, caches stop serving, bookings go on; back: all resumes', async () => {
    await sql`delete from rate_counters`.execute(s.database.db);
    // The cache trusts its fan-out again at the first heartbeat that comes back.
    const env = { REDIS_URL: url, REDIS_PREFIX: 'qt-outage:', READ_CACHE_HEARTBEAT_MS: '300' };
    const a = await process(env);
    const b = await process(env);
    const codes = [];
    for (const app of [a, b, a, b])
      codes.push((await sendContact(app, '198.51.100.41')).statusCode);
    expect(codes).toEqual([201, 201, 201, 429]);
    expect(await countedInDatabase(), 'counted in Redis, not in the database').toBe(0);
    // A sync token goes database → relay → Redis → this process: the whole path works.
    await a.readCache.sync();
    await b.readCache.sync();
    expect([a.readCache.serving, b.readCache.serving]).toEqual([true, true]);

    await kill(redis);
    await vi.waitFor(() =>
      expect([a.readCache.serving, b.readCache.serving]).toEqual([false, false]),
    );
    // Limits still hold, in sum over both processes, counted in the database meanwhile.
    const during = [];
    for (const app of [a, b, a, b])
      during.push((await sendContact(app, '198.51.100.42')).statusCode);
    expect(during).toEqual([201, 201, 201, 429]);
    expect(await countedInDatabase()).toBe(4);
    // A booking does not need Redis.
    const started = await b.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(s.fx),
    });
    expect(started.statusCode).toBe(201);

    redis = await startRedis(port);
    // Both reconnect; the relay's lease is taken again and the caches trust their fan-out.
    await vi.waitFor(
      async () => {
        await Promise.all([a.readCache.sync(), b.readCache.sync()]);
        expect([a.readCache.serving, b.readCache.serving]).toEqual([true, true]);
      },
      { timeout: 15_000, interval: 200 },
    );
    const after = [];
    for (const app of [a, b, a, b])
      after.push((await sendContact(app, '198.51.100.43')).statusCode);
    expect(after).toEqual([201, 201, 201, 429]);
    expect(await countedInDatabase(), 'Redis counts again').toBe(4);
  });

  it('the relay that stops says so, and another process takes over and says so', async () => {
    const open = async () => {
      const link = await openRedis({ url, prefix: 'qt-relay:' }, log);
      links.push(link);
      return link;
    };
    const [one, two, listening] = [await open(), await open(), await open()];
    const fanout = new RedisFanout(listening);
    const heard: string[] = [];
    await fanout.listen(
      'payment_status',
      (payload) => heard.push(payload),
      () => heard.push('lost'),
    );
    const first = new NotifyRelay({
      link: one,
      database: s.database,
      channels: ['payment_status'],
      log,
      renewMs: 200,
    });
    const second = new NotifyRelay({
      link: two,
      database: s.database,
      channels: ['payment_status'],
      log,
      renewMs: 200,
    });
    // "" (re-read everything) is always allowed, and comes again after any doubt (a slow
    // lease renewal on a busy machine): the order of the rest is what is checked.
    const said = () => heard.filter((payload) => payload !== '');
    const reReadSince = (marker: string) => heard.lastIndexOf('') > heard.lastIndexOf(marker);
    await first.start();
    await second.start();
    expect([first.relaying, second.relaying]).toEqual([true, false]);
    await vi.waitFor(() => expect(heard).toContain(''));
    await sql`select pg_notify('payment_status', 'p-1')`.execute(s.database.db);
    await vi.waitFor(() => expect(said()).toEqual(['p-1']));

    await first.stop();
    await vi.waitFor(() => expect(second.relaying).toBe(true));
    await vi.waitFor(() => expect(said()).toEqual(['p-1', 'lost']));
    await vi.waitFor(() => expect(reReadSince('lost')).toBe(true));
    await sql`select pg_notify('payment_status', 'p-2')`.execute(s.database.db);
    // Once, from the one relay left.
    await vi.waitFor(() => expect(said()).toEqual(['p-1', 'lost', 'p-2']));

    // A relay that finds its lease taken (it paused past the lease) steps down without a
    // word: the other relay is live, and a "lost" now would never be followed by its "".
    const third = new NotifyRelay({
      link: one,
      database: s.database,
      channels: ['payment_status'],
      log,
      renewMs: 200,
    });
    await third.start();
    await second.stop();
    await vi.waitFor(() => expect(said()).toEqual(['p-1', 'lost', 'p-2', 'lost']));
    await vi.waitFor(() => expect(reReadSince('lost')).toBe(true));
    expect(third.relaying).toBe(true);
    await two.commands.set('qt-relay:notify-relay', 'a-fourth-process', 'PX', 60_000);
    await vi.waitFor(() => expect(third.relaying).toBe(false));
    // Published on the relay's own connection after anything it said while stepping down.
    await one.commands.publish('qt-relay:payment_status', 'marker');
    await vi.waitFor(() => expect(said()).toEqual(['p-1', 'lost', 'p-2', 'lost', 'marker']));
    await third.stop();
    expect(RELAY_LOST).not.toMatch(/^[\w:-]*$/);
  });
});
