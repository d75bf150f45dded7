import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { FixedClock } from '../../src/core/clock.js';
import { createCampayProvider } from '../../src/providers/campay.js';
import { type FakeCampay, startFakeCampay } from '../support/campay-fake.js';
import { createFixture, initiateBody } from '../support/fixtures.js';
import { NO_LIMITS as LIMITS, statusOf } from '../support/payment-helpers.js';
import { createTestApp, PINNED_NOW } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';

describe('a crash during Campay collect loses no money', () => {
  // Two processes one after the other on one database, the first left frozen inside collect:
  // not a stack's app, which lives as long as its block.
  let tdb: TestDatabase | null = null;
  let fake: FakeCampay | null = null;
  afterAll(async () => {
    await fake?.close();
    await tdb?.cleanup();
  });

  it('the process dies while collect is in flight; the next process finds and confirms it', async () => {
    tdb = await createTestDatabase(inject('engine'));
    const clock = new FixedClock(PINNED_NOW);
    const campay = await startFakeCampay({ now: () => clock.now() });
    fake = campay;
    const provider = (fetchImpl?: typeof fetch) =>
      createCampayProvider(
        {
          baseUrl: campay.baseUrl,
          username: 'qless-app',
          password: 'qless-secret',
          webhookKey: campay.webhookKey,
          timeoutMs: 60_000,
        },
        { now: () => clock.now(), ...(fetchImpl ? { fetch: fetchImpl } : {}) },
      );
    // The first process freezes inside collect: Campay gets the request, we never see its answer.
    const frozen: typeof fetch = (input, init) => {
      const url = String(input);
      if (!url.endsWith('/api/collect/')) return fetch(input, init);
      void fetch(input, { ...init, signal: null }).catch(() => undefined);
      return new Promise<Response>(() => undefined);
    };
    const first = await createTestApp(tdb.database, {
      clock,
      provider: provider(frozen),
      env: LIMITS,
    });
    const fx = await createFixture(tdb.database, clock.now());
    const body = initiateBody(fx);
    void first.app.inject({ method: 'POST', url: '/api/v1/payment/initiate', payload: body });
    await vi.waitFor(() => expect(campay.transactions.size).toBeGreaterThan(0), {
      timeout: 30_000,
      interval: 10,
    });
    await first.app.close();

    const [tx] = [...campay.transactions.values()];
    const paymentId = tx?.external_reference as string;
    expect(tx?.description).toContain(paymentId);
    campay.settle(tx?.reference as string, 'SUCCESSFUL'); // the customer approves on the phone

    const second = await createTestApp(tdb.database, { clock, provider: provider(), env: LIMITS });
    try {
      clock.advance(30_000);
      await second.app.payments.reconciler.sweep();
      const after = await statusOf(second.app, paymentId);
      expect(after.status).toBe('SUCCESSFUL');
      expect(after.ticket).not.toBeNull();
      const row = await tdb.database.db
        .selectFrom('payments')
        .select('provider_reference')
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      expect(row.provider_reference).toBe(tx?.reference);
    } finally {
      await second.app.close();
    }
  });
});
