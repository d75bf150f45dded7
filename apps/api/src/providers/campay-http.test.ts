import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeCampay } from '../../test/support/campay-fake.js';
import { useFakeCampay } from '../../test/support/campay-test-setup.js';
import { CAMPAY_FAILURE_MESSAGES, CampayAuthError } from './campay.js';
import { ProviderUnavailableError } from './provider.js';

const campay = useFakeCampay();
const { makeProvider, collectRequest, collectOk, routeRequests, advanceClock } = campay;
let fake: FakeCampay;
beforeEach(() => {
  fake = campay.fake;
});

describe('Campay token handling', () => {
  it('obtains a token once and reuses it for later calls', async () => {
    const provider = makeProvider();
    const collected = await collectOk(provider);
    await provider.getStatus(collected.providerReference);

    expect(fake.tokenRequests).toBe(1);
    expect(routeRequests('token')[0]?.body).toEqual({
      username: 'qless-app',
      password: 'qless-secret',
    });
    const auth = `Token ${fake.issuedTokens[0]}`;
    expect(routeRequests('collect').map((r) => r.authorization)).toEqual([auth]);
    expect(routeRequests('transaction').map((r) => r.authorization)).toEqual([auth]);
  });

  it('keeps the token while the injected clock is well within expires_in', async () => {
    const provider = makeProvider();
    await collectOk(provider);
    advanceClock(3000 * 1000);
    await collectOk(provider);
    expect(fake.tokenRequests).toBe(1);
  });

  it('fetches a new token shortly before expires_in, without waiting for a 401', async () => {
    const provider = makeProvider();
    await collectOk(provider);
    advanceClock((3600 - 30) * 1000); // inside the refresh margin, token still valid at Campay
    await collectOk(provider);

    expect(fake.tokenRequests).toBe(2);
    expect(fake.requests.some((r) => r.status === 401)).toBe(false);
    expect(routeRequests('collect').map((r) => r.authorization)).toEqual([
      `Token ${fake.issuedTokens[0]}`,
      `Token ${fake.issuedTokens[1]}`,
    ]);
  });

  it('re-authenticates once and retries when Campay answers 401 for an expired token', async () => {
    const provider = makeProvider();
    await collectOk(provider);
    fake.expireAllTokens();

    const second = await provider.collect(collectRequest({ paymentId: 'pay_456' }));
    expect(second.ok).toBe(true);
    expect(fake.tokenRequests).toBe(2);
    expect(routeRequests('collect').map((r) => r.status)).toEqual([200, 401, 200]);
    expect(fake.findByExternalReference('pay_456')).toBeDefined();
  });

  it('re-authenticates on 401 for status queries too', async () => {
    const provider = makeProvider();
    const { providerReference } = await collectOk(provider);
    fake.expireAllTokens();
    const event = await provider.getStatus(providerReference);
    expect(event.status).toBe('PENDING');
    expect(routeRequests('transaction').map((r) => r.status)).toEqual([401, 200]);
  });

  it('retries only once: a second 401 is PROVIDER_UNAVAILABLE', async () => {
    const provider = makeProvider();
    fake.queueResponse('collect', { status: 401, body: { detail: 'Invalid token.' } });
    fake.queueResponse('collect', { status: 401, body: { detail: 'Invalid token.' } });
    const result = await provider.collect(collectRequest());
    expect(result).toEqual({
      ok: false,
      code: 'PROVIDER_UNAVAILABLE',
      message: CAMPAY_FAILURE_MESSAGES.unavailable,
      providerCode: 'UNAUTHORIZED',
    });
    expect(routeRequests('collect')).toHaveLength(2);
    expect(fake.tokenRequests).toBe(2);
  });

  it('reports refused credentials as unavailable and never calls collect', async () => {
    const provider = makeProvider({ password: 'wrong' });
    const result = await provider.collect(collectRequest());
    expect(result).toMatchObject({
      ok: false,
      code: 'PROVIDER_UNAVAILABLE',
      providerCode: 'AUTH_FAILED',
    });
    expect(routeRequests('collect')).toHaveLength(0);

    const status = provider.getStatus('some-reference');
    await expect(status).rejects.toBeInstanceOf(CampayAuthError);
    await expect(status).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('shares one token request between concurrent calls', async () => {
    const provider = makeProvider();
    const results = await Promise.all([
      provider.collect(collectRequest({ paymentId: 'a' })),
      provider.collect(collectRequest({ paymentId: 'b' })),
      provider.collect(collectRequest({ paymentId: 'c' })),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(fake.tokenRequests).toBe(1);
  });
});
