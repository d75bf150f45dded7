import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeCampay } from '../../test/support/campay-fake.js';
import { useFakeCampay } from '../../test/support/campay-test-setup.js';
import { CampayTransactionNotFoundError } from './campay.js';
import { ProviderUnavailableError } from './provider.js';

const campay = useFakeCampay();
const { makeProvider, collectOk, routeRequests } = campay;
let fake: FakeCampay;
beforeEach(() => {
  fake = campay.fake;
});

describe('Campay getStatus', () => {
  it.each(['PENDING', 'SUCCESSFUL', 'FAILED'] as const)('maps a %s transaction', async (status) => {
    const provider = makeProvider();
    const { providerReference } = await collectOk(provider);
    const tx = fake.settle(providerReference, status);

    const event = await provider.getStatus(providerReference);
    expect(event).toEqual({
      providerReference,
      paymentId: 'pay_123',
      status,
      amount: 2,
      currency: 'XAF',
      operator: 'MTN',
      operatorReference: tx.operator_reference,
      code: tx.code,
      endpoint: 'collect',
    });
    expect(routeRequests('transaction')[0]?.path).toBe(`/api/transaction/${providerReference}/`);
  });

  it.each([
    ['CANCELLED', 'FAILED'],
    ['expired', 'FAILED'],
    ['PROCESSING', 'PENDING'],
    [undefined, 'PENDING'],
  ])('maps the non-standard status %s to %s', async (raw, expected) => {
    fake.queueResponse('transaction', {
      status: 200,
      body: { reference: 'ref-1', status: raw, amount: '2', currency: 'XAF' },
    });
    const event = await makeProvider().getStatus('ref-1');
    expect(event.status).toBe(expected);
    expect(event.amount).toBe(2);
  });

  it('throws ProviderUnavailableError on 5xx', async () => {
    fake.queueResponse('transaction', { status: 503, body: '<html>down</html>' });
    await expect(makeProvider().getStatus('ref-1')).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
  });

  it('throws ProviderUnavailableError on a timeout', async () => {
    fake.hangNext('transaction');
    const started = performance.now();
    await expect(makeProvider({ timeoutMs: 200 }).getStatus('ref-1')).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('throws a not-found error (not "unavailable") for an unknown reference', async () => {
    const status = makeProvider().getStatus('no-such-reference');
    await expect(status).rejects.toBeInstanceOf(CampayTransactionNotFoundError);
    await expect(status).rejects.not.toBeInstanceOf(ProviderUnavailableError);
  });
});
