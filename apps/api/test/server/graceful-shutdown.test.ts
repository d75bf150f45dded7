// engines: postgres and pglite — hand-backs of claims (SKIP LOCKED rows); two processes on PostgreSQL only
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { queueSms } from '../../src/modules/outbox/outbox.repository.js';
import { OutboxWorker } from '../../src/modules/outbox/outbox-worker.js';
import { Reconciler } from '../../src/modules/payments/reconciler.js';
import type { PaymentProvider } from '../../src/providers/provider.js';
import { signSimulatorCallback } from '../../src/providers/simulator.js';
import { useStack } from '../support/app-fixture.js';
import {
  get,
  type HeldGateway,
  openRaw,
  slowPost,
  startHeldGateway,
  tryConnect,
  waitReady,
} from '../support/drain-helpers.js';
import { createFixture, initiateBody } from '../support/fixtures.js';
import { insertPendingBacklog } from '../support/payment-backlog.js';
import { NO_LIMITS, ORIGIN, simulatorSuccessFields } from '../support/payment-helpers.js';
import { freePort, startServer } from '../support/server-process.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';
import { openSocket } from '../support/ws.js';

type Server = ReturnType<typeof startServer>;

/** The drain's log lines (LOG_LEVEL=info), by phase. */
function shutdownLines(output: string): Record<string, Record<string, unknown>> {
  const lines: Record<string, Record<string, unknown>> = {};
  for (const line of output.split('\n')) {
    if (!line.includes('"shutdown: ')) continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    lines[String(entry.phase ?? entry.msg)] = entry;
  }
  return lines;
}

/**
 * A deploy's SIGTERM to one of two processes on one PostgreSQL (issue 21 item 2, decision
 * 028), each a real process: PGlite cannot share its database between processes.
 */
describe.runIf(inject('engine') === 'postgres')('SIGTERM to one of two processes', () => {
  let tdb: TestDatabase | null = null;
  const servers: Server[] = [];
  const gateways: HeldGateway[] = [];
  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await Promise.all(gateways.map((g) => g.close()));
    await tdb?.cleanup();
  });

  it('answers what it read, moves every socket and hands its claims to the other', async () => {
    const database = await createTestDatabase('postgres');
    tdb = database;
    const db = database.database.db;
    // Real processes run on the wall clock; the fixture's slots and date follow it.
    const fx = await createFixture(database.database, new Date());
    const date = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const gatewayA = await startHeldGateway({ holdFirst: true });
    const gatewayB = await startHeldGateway({ holdFirst: false });
    gateways.push(gatewayA, gatewayB);
    const [portA, portB] = [await freePort(), await freePort()];
    const env = (port: number, gateway: HeldGateway) => ({
      ...NO_LIMITS,
      DATABASE_URL: database.url as string,
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: 'false',
      PUBLIC_ORIGIN: ORIGIN,
      LOG_LEVEL: 'info',
      // Payments settle only when this test says so.
      SIMULATOR_DELAY_MS: '600000',
      SMS_PROVIDER: 'africastalking',
      AFRICASTALKING_BASE_URL: gateway.baseUrl,
      AFRICASTALKING_USERNAME: gateway.username,
      AFRICASTALKING_API_KEY: gateway.apiKey,
      OUTBOX_WORKER_INTERVAL_MS: '200',
      // The held send must outlast B's start-up: it ends when the test releases it.
      SMS_TIMEOUT_MS: '60000',
      SHUTDOWN_TIMEOUT_MS: '10000',
    });
    const baseA = `http://127.0.0.1:${portA}`;
    const baseB = `http://127.0.0.1:${portB}`;

    // A alone first: it claims the three SMS of this test at once and is held sending one.
    const a = startServer(env(portA, gatewayA));
    servers.push(a);
    await waitReady(baseA, a);
    const numbers = ['+237690000001', '+237690000002', '+237690000003'];
    // In one transaction, so that A's next sweep claims the three together.
    const messageIds = await db.transaction().execute(async (trx) => {
      const ids: string[] = [];
      for (const to of numbers) {
        ids.push(
          await queueSms(trx, { to, subject: 'Drain', text: 'Hi', kind: 'drain_test' }, new Date()),
        );
      }
      return ids;
    });
    await vi.waitFor(() => expect(gatewayA.received).toHaveLength(1), { timeout: 10_000 });
    const leased = await db
      .selectFrom('outbox')
      .select(['id', 'next_attempt_at'])
      .where('id', 'in', messageIds)
      .execute();
    // Leased for minutes: without a hand back, another process would wait that long.
    for (const row of leased) {
      expect(row.next_attempt_at?.getTime() ?? 0).toBeGreaterThan(Date.now() + 60_000);
    }

    const b = startServer(env(portB, gatewayB));
    servers.push(b);
    await waitReady(baseB, b);

    // Two pending payments on A, ten status sockets on each.
    const phone = (n: number) => `+23767712340${n}`;
    const start = async (slotIndex: number) => {
      const res = await fetch(`${baseA}/api/v1/payment/initiate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // A number each: a second payment to one number supersedes the first (decision 017).
        body: JSON.stringify(initiateBody(fx, { date, slotIndex, phone_number: phone(slotIndex) })),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { payment: { payment_id: string } }).payment.payment_id;
    };
    const [stays, settles] = [await start(0), await start(1)];
    const socketPath = (id: string) => `/api/v1/payment/${id}/statusSocket`;
    const sockets = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        openSocket(`ws://127.0.0.1:${portA}${socketPath(i % 2 ? settles : stays)}`, ORIGIN),
      ),
    );
    for (const s of sockets)
      expect(s.first, JSON.stringify(s.first)).toMatchObject({ status: 'PENDING' });
    const closes = sockets.map(
      (s) =>
        new Promise<{ code: number; reason: string }>((resolve) =>
          s.ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
        ),
    );

    // A customer on a slow network is halfway through sending a booking when SIGTERM comes.
    const slow = slowPost(
      '/api/v1/payment/initiate',
      initiateBody(fx, { date, slotIndex: 2, phone_number: phone(2) }),
    );
    const conn = await openRaw(portA);
    conn.write(slow.head);
    // Two probes whose first bytes arrived before the signal (a connection mid-request is
    // not idle): their requests are read during the drain.
    const [readyProbe, liveProbe] = [await openRaw(portA), await openRaw(portA)];
    readyProbe.write(get('/api/v1/health/ready').slice(0, -2));
    liveProbe.write(get('/api/v1/health/live').slice(0, -2));
    await new Promise((r) => setTimeout(r, 200));
    const signalled = performance.now();
    a.child.kill('SIGTERM');

    // The listener closes at once: a new connection is refused (a proxy tries the next one).
    await vi.waitFor(async () => expect(await tryConnect(portA)).toBe('ECONNREFUSED'), {
      timeout: 3_000,
      interval: 50,
    });
    expect(a.child.exitCode).toBeNull();

    // Every socket is told to reconnect: 1012 "service restart".
    const closed = await Promise.all(closes);
    expect(closed.every((c) => c.code === 1012 && c.reason === 'service restart')).toBe(true);

    // While disconnected, one payment settles (its callback lands on B).
    const { fields, key } = await simulatorSuccessFields(db, settles);
    const signature = await signSimulatorCallback(key, fields, new Date());
    const callback = await fetch(`${baseB}/api/v1/payment/callback/simulator`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...fields, signature }),
    });
    expect(callback.status).toBe(200);

    // Reconnecting to B: the first frame is the current status, the settled one included.
    const again = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        openSocket(`ws://127.0.0.1:${portB}${socketPath(i % 2 ? settles : stays)}`, ORIGIN),
      ),
    );
    for (const [i, s] of again.entries()) {
      expect(s.first).toMatchObject({ status: i % 2 ? 'SUCCESSFUL' : 'PENDING' });
    }
    for (const s of again) s.ws.close();

    // Readiness says draining while liveness still says ok; each connection then ends.
    readyProbe.write('\r\n');
    liveProbe.write('\r\n');
    const [ready] = await readyProbe.waitFor(1);
    const [live] = await liveProbe.waitFor(1);
    expect(ready?.status).toBe(503);
    expect(ready?.headers['retry-after']).toBe('5');
    expect(JSON.parse(ready?.body ?? '{}')).toEqual({ status: 'unavailable', reason: 'draining' });
    expect(ready?.headers.connection).toBe('close');
    expect(live?.status).toBe(200);
    expect(live?.headers.connection).toBe('close');
    // The rest of the slow booking arrives: it is booked, and its connection ends.
    conn.write(slow.rest);
    const [booked] = await conn.waitFor(1);
    expect(booked?.status, booked?.body).toBe(201);
    expect(booked?.headers.connection).toBe('close');
    await Promise.all([conn.closed, readyProbe.closed, liveProbe.closed]);
    expect(a.child.exitCode).toBeNull(); // still sending the held SMS

    // The held SMS is answered: A records it, hands back the other two and exits 0.
    gatewayA.release();
    expect(await a.exited, a.output()).toBe(0);
    const exitedAt = performance.now();
    expect(exitedAt - signalled).toBeLessThan(10_000);

    // B sends the two handed back at its next sweep, not after the five-minute lease.
    await vi.waitFor(
      async () => {
        const rows = await db
          .selectFrom('outbox')
          .select(['status', 'attempts'])
          .where('id', 'in', messageIds)
          .orderBy('to_address')
          .execute();
        expect(rows.map((r) => [r.status, r.attempts])).toEqual([
          ['sent', 1],
          ['sent', 1],
          ['sent', 1],
        ]);
      },
      { timeout: 2_500, interval: 50 },
    );
    expect(performance.now() - exitedAt).toBeLessThan(2_500);
    expect(gatewayA.received).toEqual([numbers[0]]);
    expect(gatewayB.received.filter((to) => numbers.includes(to)).sort()).toEqual(numbers.slice(1));
    const booking = JSON.parse(booked?.body ?? '{}') as { payment: { payment_id: string } };
    expect(
      await db
        .selectFrom('payments')
        .select('status')
        .where('id', '=', booking.payment.payment_id)
        .executeTakeFirst(),
    ).toEqual({ status: 'PENDING' });

    // One log line per phase, with durations; the counts are those of this drain.
    const log = shutdownLines(a.output());
    expect(Object.keys(log)).toEqual(
      expect.arrayContaining(['draining', 'sockets', 'requests', 'background', 'app', 'database']),
    );
    expect(log.sockets).toMatchObject({ toldToReconnect: 20, cut: 0 });
    expect(log.background?.tasks).toMatchObject({ outbox: { handedBack: 2 } });
    for (const phase of Object.values(log)) expect(typeof phase.ms).toBe('number');

    b.child.kill('SIGTERM');
    expect(await b.exited, b.output()).toBe(0);
  }, 120_000);
});

/** What the background work hands back when it stops, on both engines, in one process. */
describe('stopping background work', () => {
  // The app's own outbox worker stays off: the worker under test is the only one.
  const stack = useStack({ env: { ...NO_LIMITS, OUTBOX_WORKER_ENABLED: 'false' }, fixture: false });

  it('the reconciler finishes the check in hand and hands back the payments it queued', async () => {
    const fx = await createFixture(stack.database, stack.clock.now(), '-handback');
    const ids = await insertPendingBacklog(stack.database, fx, 10, stack.clock.now());
    stack.clock.advance(60_000);
    const real = stack.app.payments.provider;
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let asked = 0;
    const slow: PaymentProvider = {
      ...real,
      capabilities: real.capabilities,
      async getStatus(reference) {
        asked += 1;
        await held;
        return real.getStatus(reference);
      },
    };
    const reconciler = (provider: PaymentProvider) =>
      new Reconciler({
        db: stack.database.db,
        clock: stack.clock,
        provider,
        bookings: stack.app.payments.bookings,
        stateMachine: stack.app.payments.stateMachine,
        log: stack.app.log,
        config: {
          reconcileAfterMs: 20_000,
          maxPendingMinutes: 30,
          intervalMs: 50,
          checksInFlight: 1,
        },
      });
    const first = reconciler(slow);
    first.start();
    await vi.waitFor(() => expect(asked).toBe(1), { timeout: 5_000 });
    const stopped = first.stop();
    release();
    expect(await stopped).toEqual({ handedBack: 9 });
    const rows = await stack.database.db
      .selectFrom('payments')
      .select(['status', 'last_checked_at'])
      .where('id', 'in', ids)
      .execute();
    expect(rows.filter((r) => r.status === 'SUCCESSFUL')).toHaveLength(1);
    // As before the claim: never checked, so due at once.
    expect(rows.filter((r) => r.status === 'PENDING' && r.last_checked_at === null)).toHaveLength(
      9,
    );
    // Another process checks them at once, on the same clock (no RECONCILE_AFTER_MS wait).
    expect(await reconciler(real).sweep()).toMatchObject({ checked: 9, failed: 0 });
  });

  it('the outbox worker sends the message in hand and hands back the rest of its batch', async () => {
    const db = stack.database.db;
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const sent: string[] = [];
    const worker = new OutboxWorker({
      db,
      clock: stack.clock,
      channels: {
        sms: {
          sender: {
            provider: 'test',
            async deliver(to) {
              sent.push(to);
              await held;
              return { ok: true, providerMessageId: null };
            },
            async close() {},
          },
          maxAttempts: 3,
          retryBaseMs: 60_000,
        },
      },
      prepareBookingMessage: async () => ({ skip: 'not in this test' }),
      config: { intervalMs: 50 },
      log: stack.app.log,
    });
    const ids = [];
    for (const n of [1, 2, 3, 4]) {
      ids.push(
        await queueSms(
          db,
          { to: `+23769100000${n}`, subject: 'Drain', text: 'Hello', kind: 'drain_test' },
          stack.clock.now(),
        ),
      );
    }
    worker.start();
    await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: 5_000 });
    const stopped = worker.stopSweeping();
    release();
    expect(await stopped).toEqual({ handedBack: 3 });
    const rows = await db
      .selectFrom('outbox')
      .select(['id', 'status', 'attempts', 'next_attempt_at'])
      .where('id', 'in', ids)
      .orderBy('to_address')
      .execute();
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 1],
      ['pending', 0],
      ['pending', 0],
      ['pending', 0],
    ]);
    // Due now, not at the end of the lease.
    for (const r of rows.slice(1)) {
      expect(r.next_attempt_at?.getTime()).toBeLessThanOrEqual(stack.clock.now().getTime());
    }
    await worker.stop();
  });
});
