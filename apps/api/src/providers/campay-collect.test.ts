import { beforeEach, describe, expect, it } from 'vitest';
import { type FakeCampay, startFakeCampay } from '../../test/support/campay-fake.js';
import { useFakeCampay } from '../../test/support/campay-test-setup.js';
import { CAMPAY_FAILURE_MESSAGES } from './campay.js';

const campay = useFakeCampay();
const { makeProvider, collectRequest, collectOk, routeRequests } = campay;
let fake: FakeCampay;
beforeEach(() => {
  fake = campay.fake;
});

describe('Campay collect', () => {
  it('sends the phone without "+", the amount as a string and our payment id', async () => {
    const provider = makeProvider();
    const result = await provider.collect(collectRequest());

    const tx = fake.findByExternalReference('pay_123');
    expect(tx).toBeDefined();
    expect(result).toEqual({
      ok: true,
      providerReference: tx?.reference,
      ussdCode: '*126#',
      operator: 'MTN',
    });
    expect(routeRequests('collect')[0]?.body).toEqual({
      amount: '2',
      currency: 'XAF',
      from: '237670000001',
      description: 'Service Payment',
      external_reference: 'pay_123',
    });
  });

  it('maps an Orange number to the Orange operator', async () => {
    const result = await collectOk(makeProvider(), { phone: '+237690000002' });
    expect(result.operator).toBe('ORANGE');
  });

  it.each([
    ['ER101', 'INVALID_PHONE', CAMPAY_FAILURE_MESSAGES.invalidPhone],
    ['ER102', 'INVALID_PHONE', CAMPAY_FAILURE_MESSAGES.unsupportedOperator],
    ['ER201', 'PAYMENT_DECLINED', CAMPAY_FAILURE_MESSAGES.invalidAmount],
    ['ER301', 'PAYMENT_DECLINED', CAMPAY_FAILURE_MESSAGES.insufficientBalance],
  ] as const)('maps %s to %s with a safe message', async (errorCode, code, message) => {
    const rawMessage = `internal detail <script>${errorCode}</script> 237670000001`;
    fake.setNextCollectError({ errorCode, message: rawMessage });
    const result = await makeProvider().collect(collectRequest());
    expect(result).toEqual({ ok: false, code, message, providerCode: errorCode });
    if (!result.ok) expect(result.message).not.toContain('internal detail');
  });

  it("maps the fake's own ER102 for a non-MTN/Orange number to INVALID_PHONE", async () => {
    const result = await makeProvider().collect(collectRequest({ phone: '+237620000000' }));
    expect(result).toMatchObject({ ok: false, code: 'INVALID_PHONE', providerCode: 'ER102' });
  });

  it('maps an unknown 4xx to PAYMENT_DECLINED with the provider code', async () => {
    fake.setNextCollectError({ errorCode: 'ER999', message: 'Something odd', status: 422 });
    const result = await makeProvider().collect(collectRequest());
    expect(result).toEqual({
      ok: false,
      code: 'PAYMENT_DECLINED',
      message: CAMPAY_FAILURE_MESSAGES.declined,
      providerCode: 'ER999',
    });
  });

  it('maps a 4xx without a JSON body to PAYMENT_DECLINED with the HTTP status', async () => {
    fake.queueResponse('collect', { status: 403, body: '<html>Forbidden</html>' });
    const result = await makeProvider().collect(collectRequest());
    expect(result).toMatchObject({
      ok: false,
      code: 'PAYMENT_DECLINED',
      providerCode: 'HTTP_403',
    });
  });

  it.each([
    // A server error may come after the PIN prompt went out: uncertain. Throttling did not.
    [500, { message: 'Internal error', error_code: 'ER500' }, 'ER500', true],
    [502, '<html>Bad gateway</html>', 'HTTP_502', true],
    [503, { detail: 'down' }, 'HTTP_503', true],
    [429, { detail: 'Request was throttled.' }, 'HTTP_429', false],
  ])('maps HTTP %s to PROVIDER_UNAVAILABLE', async (status, body, providerCode, uncertain) => {
    fake.queueResponse('collect', { status, body });
    const result = await makeProvider().collect(collectRequest());
    expect(result).toEqual({
      ok: false,
      code: 'PROVIDER_UNAVAILABLE',
      message: CAMPAY_FAILURE_MESSAGES.unavailable,
      providerCode,
      ...(uncertain ? { uncertain: true } : {}),
    });
  });

  it('gives up on a hung collect after about timeoutMs', async () => {
    const provider = makeProvider({ timeoutMs: 500 });
    // A token first, so that the time allowed goes to the hung collect: on a loaded machine
    // the token request alone once took 200 ms, and the collect never reached the fake.
    await collectOk(provider, { paymentId: 'pay_warm' });
    fake.hangNext('collect');
    const started = performance.now();
    const result = await provider.collect(collectRequest());
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({
      ok: false,
      code: 'PROVIDER_UNAVAILABLE',
      providerCode: 'TIMEOUT',
    });
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(3000);
    expect(routeRequests('collect')[1]?.status).toBeNull();
  });

  it('bounds the whole operation, including a hung token request', async () => {
    const provider = makeProvider({ timeoutMs: 200 });
    fake.hangNext('token');
    const started = performance.now();
    const result = await provider.collect(collectRequest());
    expect(performance.now() - started).toBeLessThan(1500);
    expect(result).toMatchObject({ ok: false, code: 'PROVIDER_UNAVAILABLE' });
    expect(routeRequests('collect')).toHaveLength(0);
  });

  it('maps a network error to PROVIDER_UNAVAILABLE', async () => {
    const closed = await startFakeCampay();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const result = await makeProvider({ baseUrl }).collect(collectRequest());
    expect(result).toMatchObject({
      ok: false,
      code: 'PROVIDER_UNAVAILABLE',
      providerCode: 'TOKEN_UNAVAILABLE',
    });
  });

  it('maps a network error on the collect call itself to PROVIDER_UNAVAILABLE', async () => {
    const failingFetch: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/api/collect/')) throw new TypeError('fetch failed');
      return fetch(input, init);
    };
    const result = await makeProvider({}, { fetch: failingFetch }).collect(collectRequest());
    expect(result).toMatchObject({
      ok: false,
      code: 'PROVIDER_UNAVAILABLE',
      providerCode: 'NETWORK_ERROR',
    });
    expect(fake.tokenRequests).toBe(1);
  });

  it('treats a 200 without a reference as PROVIDER_UNAVAILABLE', async () => {
    fake.queueResponse('collect', { status: 200, body: { ussd_code: '*126#' } });
    const result = await makeProvider().collect(collectRequest());
    expect(result).toMatchObject({ ok: false, providerCode: 'BAD_RESPONSE' });
  });

  it('rejects a malformed phone or a fractional amount without calling Campay', async () => {
    const provider = makeProvider();
    expect(await provider.collect(collectRequest({ phone: '6700-abc' }))).toMatchObject({
      ok: false,
      code: 'INVALID_PHONE',
      providerCode: null,
    });
    expect(await provider.collect(collectRequest({ amount: 2.5 }))).toMatchObject({
      ok: false,
      code: 'PAYMENT_DECLINED',
      providerCode: null,
    });
    expect(fake.requests).toHaveLength(0);
  });
});
