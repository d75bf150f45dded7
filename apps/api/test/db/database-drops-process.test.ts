import { createConnection, createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createUser, TEST_PASSWORD } from '../support/auth-helpers.js';
import { createFixture } from '../support/fixtures.js';
import { NO_LIMITS } from '../support/payment-helpers.js';
import { freePort, startServer } from '../support/server-process.js';
import { PINNED_NOW } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';

type Process = ReturnType<typeof startServer>;

/** A TCP relay to PostgreSQL whose connections can all be reset at once (RST, not FIN). */
async function resettableProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    /** Resets every connection, as a firewall or a restarted PgBouncer does. */
    reset(): number {
      const all = [...sockets];
      for (const s of all) s.resetAndDestroy();
      return all.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

interface Outcome {
  status: number;
  code: string | null;
  retryAfter: string | null;
  /** A fetch that failed: the connection to the app was reset or refused. */
  failure?: string;
}

/**
 * A real server process on PostgreSQL (issue 31 item 2): a pooled connection checked out to a
 * request had no 'error' listener, so a reset or a pg_terminate_backend under load exited Node.
 */
describe('the database connections drop under load', () => {
  let tdb: TestDatabase | null = null;
  let proxy: Awaited<ReturnType<typeof resettableProxy>> | null = null;
  let server: Process | null = null;
  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await server?.exited;
    await proxy?.close();
    await tdb?.cleanup();
  });

  it('a reset and pg_terminate_backend mid-request: every request answers (503 with Retry-After or done), the process lives and recovers', async () => {
    tdb = await createTestDatabase('postgres');
    // The server's clock is pinned (QLESS_FAKE_NOW): the run does not depend on the hour.
    const fx = await createFixture(tdb.database, new Date(PINNED_NOW));
    await createUser(tdb.database.db, {
      email: 'staff@drop.cm',
      role: 'staff',
      organizationId: fx.orgId,
    });
    await createUser(tdb.database.db, {
      email: 'admin@drop.cm',
      role: 'org_admin',
      organizationId: fx.orgId,
    });
    const url = new URL(tdb.url as string);
    proxy = await resettableProxy({ host: url.hostname, port: Number(url.port || 5432) });
    const viaProxy = new URL(url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const proc = startServer({
      ...NO_LIMITS,
      DATABASE_URL: viaProxy.toString(),
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: 'false',
      RECONCILER_ENABLED: 'false',
      NODE_ENV: 'test',
      QLESS_FAKE_NOW: PINNED_NOW,
    });
    server = proc;
    await vi.waitFor(
      async () => {
        const res = await fetch(`${base}/api/v1/health`).catch(() => null);
        expect(res?.status, `the server did not start:\n${proc.output()}`).toBe(200);
      },
      { timeout: 30_000, interval: 200 },
    );
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'staff@drop.cm', password: TEST_PASSWORD }),
    });
    expect(login.status, await login.clone().text()).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const json = { ...headers, 'content-type': 'application/json' };
    // Counters are an admin's to create; the clerk calls at them.
    const adminLogin = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@drop.cm', password: TEST_PASSWORD }),
    });
    const adminToken = ((await adminLogin.json()) as { token: string }).token;
    const made = await fetch(`${base}/api/v1/queue/counters`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Guichet 1', service_ids: [fx.serviceId] }),
    });
    expect(made.status, await made.clone().text()).toBe(201);
    const counterId = ((await made.json()) as { counter: { counter_id: string } }).counter
      .counter_id;

    let searches = 0;
    const requests: (() => Promise<Response>)[] = [
      () => {
        searches += 1;
        return fetch(`${base}/api/v1/organizations?q=drop${searches}`);
      },
      () => fetch(`${base}/api/v1/queue/today`, { headers }),
      () =>
        fetch(`${base}/api/v1/queue/visits`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ service_id: fx.serviceId, name: 'Eto Jean' }),
        }),
      () => fetch(`${base}/api/v1/queue/counters/${counterId}/open`, { method: 'POST', headers }),
      () =>
        fetch(`${base}/api/v1/queue/counters/${counterId}/call-next`, { method: 'POST', headers }),
      () => fetch(`${base}/api/v1/queue/counters/${counterId}/done`, { method: 'POST', headers }),
    ];
    const outcomes: Outcome[] = [];
    let running = true;
    const worker = async (n: number) => {
      for (let i = n; running; i += 1) {
        const ask = requests[i % requests.length] as () => Promise<Response>;
        try {
          const res = await ask();
          const body = (await res.json().catch(() => null)) as { code?: string } | null;
          outcomes.push({
            status: res.status,
            code: body?.code ?? null,
            retryAfter: res.headers.get('retry-after'),
          });
        } catch (err) {
          outcomes.push({ status: 0, code: null, retryAfter: null, failure: String(err) });
        }
      }
    };
    const load = [0, 1, 2, 3, 4, 5].map((n) => worker(n));

    const admin = new pg.Client({ connectionString: tdb.url as string });
    await admin.connect();
    try {
      const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
      let resets = 0;
      let killed = 0;
      for (let round = 0; round < 4; round += 1) {
        await pause(300);
        resets += proxy.reset();
        await pause(300);
        const { rows } = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()`,
        );
        killed += rows.length;
      }
      await pause(300);
      running = false;
      await Promise.all(load);
      expect(resets).toBeGreaterThan(0);
      expect(killed).toBeGreaterThan(0);
    } finally {
      running = false;
      await admin.end();
    }

    expect(proc.child.exitCode, proc.output()).toBeNull();
    const failures = outcomes.filter((o) => o.status === 0 || o.status >= 500);
    const bad = failures.filter(
      (o) =>
        o.status !== 503 ||
        o.retryAfter === null ||
        !['DATABASE_UNAVAILABLE', 'OUTCOME_UNKNOWN'].includes(o.code ?? ''),
    );
    expect(bad, proc.output()).toEqual([]);
    // The faults did reach requests in flight, and most requests were still answered.
    expect(failures.length).toBeGreaterThan(0);
    expect(outcomes.length).toBeGreaterThan(failures.length);
    await expect
      .poll(async () => (await fetch(`${base}/api/v1/queue/today`, { headers })).status, {
        timeout: 5000,
        interval: 100,
      })
      .toBe(200);
    expect(proc.child.exitCode, proc.output()).toBeNull();
  }, 45_000);
});
