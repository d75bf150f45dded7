import { PAYMENT_FAILURE_REASONS, paymentFailureReason } from '@qless/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeCampay } from '../../../test/support/campay-fake.js';
import { useFakeCampay } from '../../../test/support/campay-test-setup.js';
import { CAMPAY_COLLECT_ERROR_CODES } from '../../providers/campay.js';
import type { CollectFailureCode } from '../../providers/provider.js';
import { SIMULATED_DECLINE } from '../../providers/simulator.js';
import { collectFailureCode, FAILURE_CODES } from './failure-codes.js';

/** Every value of CollectFailureCode (the compiler refuses a missing one). */
const COLLECT_CODES: Record<CollectFailureCode, true> = {
  PAYMENT_DECLINED: true,
  INVALID_PHONE: true,
  PROVIDER_UNAVAILABLE: true,
};

/**
 * The codes a FAILED payment can carry, by who writes them: our own (state machine,
 * reconciler, hold limits, the customer's cancel), the simulator's, a refused collect's
 * (the adapter's verdicts and Campay's documented codes), the provider codes the Campay
 * adapter gives when it could not be used, and the initiation's own for a collect that threw.
 */
const SERVER_CODES = [
  ...Object.values(FAILURE_CODES),
  SIMULATED_DECLINE,
  ...Object.keys(COLLECT_CODES),
  ...CAMPAY_COLLECT_ERROR_CODES,
  'UNAUTHORIZED',
  'AUTH_FAILED',
  'TOKEN_UNAVAILABLE',
  'TIMEOUT',
  'NETWORK_ERROR',
  'BAD_RESPONSE',
  'EXCEPTION',
];

describe('failure codes the customer is told about', () => {
  it('maps every code the server writes to one of the four reasons', () => {
    const unmapped = SERVER_CODES.filter((code) => !Object.hasOwn(PAYMENT_FAILURE_REASONS, code));
    expect(unmapped).toEqual([]);
    expect(CAMPAY_COLLECT_ERROR_CODES.length).toBeGreaterThan(0);
  });

  it('says what each kind of failure is', () => {
    expect(paymentFailureReason(FAILURE_CODES.EXPIRED)).toBe('not_approved_in_time');
    expect(paymentFailureReason(FAILURE_CODES.CANCELLED_BY_CUSTOMER)).toBe('cancelled');
    expect(paymentFailureReason(FAILURE_CODES.SUPERSEDED)).toBe('cancelled');
    expect(paymentFailureReason(FAILURE_CODES.OUTCOME_UNKNOWN)).toBe('provider_unavailable');
    expect(paymentFailureReason(SIMULATED_DECLINE)).toBe('declined');
    expect(paymentFailureReason('ER301')).toBe('declined');
    expect(paymentFailureReason('HTTP_503')).toBe('provider_unavailable');
    expect(paymentFailureReason('HTTP_429')).toBe('provider_unavailable');
    expect(paymentFailureReason('HTTP_408')).toBe('provider_unavailable');
    expect(paymentFailureReason('HTTP_403')).toBe('declined');
    // A provider's own code for a transaction it failed: the provider said no.
    expect(paymentFailureReason('CP000123')).toBe('declined');
    expect(paymentFailureReason(null)).toBe('declined');
    // Not fooled by names of Object.prototype.
    expect(paymentFailureReason('constructor')).toBe('declined');
  });
});

describe('the failure code of a refused Campay collect', () => {
  const campay = useFakeCampay();
  let fake: FakeCampay;
  beforeEach(() => {
    fake = campay.fake;
  });

  it.each([
    [401, { error_code: 'ER777', message: 'no' }, 'provider_unavailable'],
    [429, { error_code: 'ER999', message: 'slow down' }, 'provider_unavailable'],
    [429, { detail: 'Request was throttled.' }, 'provider_unavailable'],
    [400, { error_code: 'ER101', message: 'bad number' }, 'declined'],
    [400, { error_code: 'ER301', message: 'balance' }, 'declined'],
    [422, { error_code: 'ER999', message: 'odd' }, 'declined'],
    [403, '<html>Forbidden</html>', 'declined'],
    [400, { error_code: 'TIMEOUT', message: 'a code that reads otherwise' }, 'declined'],
  ] as const)('HTTP %s %j reads as %s', async (status, body, reason) => {
    // Twice: a 401 is retried once with a fresh token.
    fake.queueResponse('collect', { status, body });
    fake.queueResponse('collect', { status, body });
    const result = await campay.makeProvider().collect(campay.collectRequest());
    if (result.ok) throw new Error('the collect should have been refused');
    expect(paymentFailureReason(collectFailureCode(result))).toBe(reason);
  });
});
