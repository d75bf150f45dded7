import { paymentStatusMessageSchema } from '@qless/contract';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type FakeCampay, startFakeCampay } from '../support/campay-fake.js';
import { createFixture, initiateBody } from '../support/fixtures.js';
import { NO_LIMITS } from '../support/payment-helpers.js';
import { freePort, startServer } from '../support/server-process.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';

type Server = ReturnType<typeof startServer>;

async function waitForHealth(base: string, server: Server): Promise<void> {
  await vi.waitFor(
    async () => {
      const res = await fetch(`${base}/api/v1/health`).catch(() => null);
      expect(res?.status, `the server did not start:\n${server.output()}`).toBe(200);
    },
    { timeout: 60_000, interval: 250 },
  );
}

/**
 * A real server process on PostgreSQL, killed with SIGKILL after Campay took the money and
 * before anything told us: Campay's callback goes nowhere (this fake never sends one), so
 * only the next process's reconciler can learn of the success.
 */
describe("SIGKILL between Campay's success and the booking's confirmation", () => {
  // Server processes on the PostgreSQL URL, outliving one another: not a stack's app.
  let tdb: TestDatabase | null = null;
  let fake: FakeCampay | null = null;
  const servers: Server[] = [];
  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await fake?.close();
    await tdb?.cleanup();
  });

  it('the next process confirms the payment and issues the ticket', async () => {
    tdb = await createTestDatabase('postgres');
    const campay = await startFakeCampay();
    fake = campay;
    // A real process runs on the wall clock; the fixture's slots and date follow it.
    const fx = await createFixture(tdb.database, new Date());
    const date = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = (extra: Record<string, string>) => ({
      ...NO_LIMITS,
      DATABASE_URL: tdb?.url as string,
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: 'false',
      PAYMENT_PROVIDER: 'campay',
      CAMPAY_BASE_URL: campay.baseUrl,
      CAMPAY_USERNAME: 'qless-app',
      CAMPAY_PASSWORD: 'qless-secret',
      CAMPAY_WEBHOOK_KEY: campay.webhookKey,
      ...extra,
    });

    const first = startServer(env({ RECONCILER_ENABLED: 'false' }));
    servers.push(first);
    await waitForHealth(base, first);
    const started = await fetch(`${base}/api/v1/payment/initiate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(initiateBody(fx, { date })),
    });
    const startedBody = await started.text();
    expect(started.status, startedBody).toBe(201);
    const paymentId = (JSON.parse(startedBody) as { payment: { payment_id: string } }).payment
      .payment_id;
    const tx = campay.findByExternalReference(paymentId);
    expect(tx).toBeDefined();
    campay.settle(tx?.reference as string, 'SUCCESSFUL'); // the payer approves on the phone

    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    const before = await tdb.database.db
      .selectFrom('payments')
      .select('status')
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    expect(before.status).toBe('PENDING');

    const second = startServer(env({ RECONCILE_AFTER_MS: '0', RECONCILE_INTERVAL_MS: '200' }));
    servers.push(second);
    await waitForHealth(base, second);
    const status = await vi.waitFor(
      async () => {
        const now = paymentStatusMessageSchema.parse(
          await (await fetch(`${base}/api/v1/payment/${paymentId}`)).json(),
        );
        expect(now.status, second.output()).not.toBe('PENDING');
        return now;
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(status.status, second.output()).toBe('SUCCESSFUL');
    expect(status.ticket).not.toBeNull();
    second.child.kill('SIGTERM');
    expect(await second.exited, second.output()).toBe(0);
  }, 120_000);
});
