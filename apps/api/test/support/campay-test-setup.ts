import { afterEach, beforeEach } from 'vitest';
import { type CampayOptions, createCampayProvider } from '../../src/providers/campay.js';
import type { CollectRequest, PaymentProvider } from '../../src/providers/provider.js';
import { type FakeCampay, type FakeCampayRoute, startFakeCampay } from './campay-fake.js';

/**
 * Shared setup for the Campay adapter's unit tests: a fresh fake Campay per test, and a
 * clock that the fake and the provider share, starting at the same instant in every test.
 */
export function useFakeCampay() {
  const start = Date.UTC(2025, 0, 15, 9, 0, 0);
  let clock = start;
  let fake: FakeCampay | null = null;
  const now = () => new Date(clock);

  beforeEach(async () => {
    clock = start;
    fake = await startFakeCampay({ now });
  });

  afterEach(async () => {
    await fake?.close();
    fake = null;
  });

  function current(): FakeCampay {
    if (!fake) throw new Error('The fake Campay runs only inside a test');
    return fake;
  }

  function makeProvider(
    overrides: Partial<CampayOptions> = {},
    deps: { fetch?: typeof fetch } = {},
  ): PaymentProvider {
    return createCampayProvider(
      {
        baseUrl: current().baseUrl,
        username: 'qless-app',
        password: 'qless-secret',
        webhookKey: current().webhookKey,
        timeoutMs: 1000,
        ...overrides,
      },
      { now, ...deps },
    );
  }

  function collectRequest(overrides: Partial<CollectRequest> = {}): CollectRequest {
    return {
      paymentId: 'pay_123',
      amount: 2,
      currency: 'XAF',
      phone: '+237670000001',
      description: 'Service Payment',
      ...overrides,
    };
  }

  async function collectOk(provider: PaymentProvider, overrides: Partial<CollectRequest> = {}) {
    const result = await provider.collect(collectRequest(overrides));
    if (!result.ok) throw new Error(`collect failed: ${JSON.stringify(result)}`);
    return result;
  }

  return {
    /** The fake of the running test. */
    get fake(): FakeCampay {
      return current();
    },
    /** The shared clock. */
    now,
    /** Moves the shared clock forward. */
    advanceClock(ms: number): void {
      clock += ms;
    },
    makeProvider,
    collectRequest,
    collectOk,
    routeRequests: (route: FakeCampayRoute) => current().requests.filter((r) => r.route === route),
  };
}
