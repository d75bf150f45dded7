import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UnsecuredJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeCampay, startFakeCampay } from '../../test/support/campay-fake.js';
import {
  CAMPAY_FAILURE_MESSAGES,
  CampayAuthError,
  type CampayOptions,
  CampayTransactionNotFoundError,
  createCampayProvider,
} from './campay.js';
import { type CollectRequest, type PaymentProvider, ProviderUnavailableError } from './provider.js';

const START = Date.UTC(2025, 0, 15, 9, 0, 0);
let clock = START;
const now = () => new Date(clock);
let fake: FakeCampay;

beforeEach(async () => {
  clock = START;
  fake = await startFakeCampay({ now });
});

afterEach(async () => {
  await fake.close();
});

function makeProvider(
  overrides: Partial<CampayOptions> = {},
  deps: { fetch?: typeof fetch } = {},
): PaymentProvider {
  return createCampayProvider(
    {
      baseUrl: fake.baseUrl,
      username: 'qless-app',
      password: 'qless-secret',
      webhookKey: fake.webhookKey,
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

const routeRequests = (route: 'token' | 'collect' | 'transaction') =>
  fake.requests.filter((r) => r.route === route);

async function collectOk(provider: PaymentProvider, overrides: Partial<CollectRequest> = {}) {
  const result = await provider.collect(collectRequest(overrides));
  if (!result.ok) throw new Error(`collect failed: ${JSON.stringify(result)}`);
  return result;
}

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
    clock += 3000 * 1000;
    await collectOk(provider);
    expect(fake.tokenRequests).toBe(1);
  });

  it('fetches a new token shortly before expires_in, without waiting for a 401', async () => {
    const provider = makeProvider();
    await collectOk(provider);
    clock += (3600 - 30) * 1000; // inside the refresh margin, token still valid at Campay
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
    [500, { message: 'Internal error', error_code: 'ER500' }, 'ER500'],
    [502, '<html>Bad gateway</html>', 'HTTP_502'],
    [503, { detail: 'down' }, 'HTTP_503'],
    [429, { detail: 'Request was throttled.' }, 'HTTP_429'],
  ])('maps HTTP %s to PROVIDER_UNAVAILABLE', async (status, body, providerCode) => {
    fake.queueResponse('collect', { status, body });
    const result = await makeProvider().collect(collectRequest());
    expect(result).toEqual({
      ok: false,
      code: 'PROVIDER_UNAVAILABLE',
      message: CAMPAY_FAILURE_MESSAGES.unavailable,
      providerCode,
    });
  });

  it('gives up on a hung collect after about timeoutMs', async () => {
    const provider = makeProvider({ timeoutMs: 200 });
    fake.hangNext('collect');
    const started = performance.now();
    const result = await provider.collect(collectRequest());
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({
      ok: false,
      code: 'PROVIDER_UNAVAILABLE',
      providerCode: 'TIMEOUT',
    });
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(1500);
    expect(routeRequests('collect')[0]?.status).toBeNull();
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

describe('Campay parseCallback', () => {
  async function settledTransaction(status: 'SUCCESSFUL' | 'FAILED' = 'SUCCESSFUL') {
    const provider = makeProvider();
    const { providerReference } = await collectOk(provider);
    const tx = fake.settle(providerReference, status);
    return { provider, tx };
  }

  it('accepts a validly signed callback in the GET query', async () => {
    const { provider, tx } = await settledTransaction();
    const fields = await fake.callbackFields(tx.reference);
    const result = await provider.parseCallback({ query: fields, body: undefined, headers: {} });

    const { signature: _signature, ...unsigned } = fields;
    expect(result).toEqual({
      ok: true,
      raw: unsigned,
      event: {
        providerReference: tx.reference,
        paymentId: 'pay_123',
        status: 'SUCCESSFUL',
        amount: 2,
        currency: 'XAF',
        operator: 'MTN',
        operatorReference: tx.operator_reference,
        code: tx.code,
      },
    });
    if (result.ok) expect(result.raw).not.toHaveProperty('signature');
  });

  it('accepts a validly signed callback in a POST JSON body', async () => {
    const { provider, tx } = await settledTransaction('FAILED');
    const fields = await fake.callbackFields(tx.reference);
    const result = await provider.parseCallback({ query: {}, body: fields, headers: {} });
    expect(result).toMatchObject({
      ok: true,
      event: { status: 'FAILED', paymentId: 'pay_123', providerReference: tx.reference },
    });
  });

  it('accepts an urlencoded body left as a string', async () => {
    const { provider, tx } = await settledTransaction();
    const body = new URLSearchParams(await fake.callbackFields(tx.reference)).toString();
    const result = await provider.parseCallback({ query: {}, body, headers: {} });
    expect(result).toMatchObject({ ok: true, event: { status: 'SUCCESSFUL' } });
  });

  it('parses callbacks delivered over HTTP by the fake (GET, JSON and form)', async () => {
    const { provider, tx } = await settledTransaction();
    const received: Array<Promise<unknown>> = [];
    const webhook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://local');
        const text = Buffer.concat(chunks).toString('utf8');
        const type = req.headers['content-type'] ?? '';
        const body = type.includes('json')
          ? JSON.parse(text)
          : type.includes('urlencoded')
            ? Object.fromEntries(new URLSearchParams(text))
            : undefined;
        received.push(
          provider.parseCallback({
            query: Object.fromEntries(url.searchParams),
            body,
            headers: req.headers,
          }),
        );
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hook`;
    try {
      for (const delivery of ['GET', 'POST_JSON', 'POST_FORM'] as const) {
        const response = await fake.deliverCallback(url, tx.reference, delivery);
        expect(response.status).toBe(200);
      }
      const results = await Promise.all(received);
      expect(results).toHaveLength(3);
      for (const result of results) {
        expect(result).toMatchObject({ ok: true, event: { providerReference: tx.reference } });
      }
    } finally {
      await new Promise<void>((resolve) => webhook.close(() => resolve()));
    }
  });

  it('rejects a signature made with another key', async () => {
    const { provider, tx } = await settledTransaction();
    const fields = await fake.callbackFields(tx.reference, { key: 'attacker-key' });
    const result = await provider.parseCallback({ query: fields, body: undefined, headers: {} });
    expect(result).toMatchObject({ ok: false, reason: 'INVALID_SIGNATURE' });
    expect(result.raw).toMatchObject({ reference: tx.reference, status: 'SUCCESSFUL' });
    expect(result.raw).not.toHaveProperty('signature');
  });

  it('rejects a missing or empty signature', async () => {
    const { provider, tx } = await settledTransaction();
    const { signature: _signature, ...unsigned } = await fake.callbackFields(tx.reference);
    for (const query of [unsigned, { ...unsigned, signature: '' }]) {
      const result = await provider.parseCallback({ query, body: undefined, headers: {} });
      expect(result).toEqual({ ok: false, reason: 'INVALID_SIGNATURE', raw: unsigned });
    }
  });

  it('rejects an unsigned "alg: none" token', async () => {
    const { provider, tx } = await settledTransaction();
    const fields = await fake.callbackFields(tx.reference);
    const unsecured = new UnsecuredJWT({ reference: tx.reference, status: 'SUCCESSFUL' }).encode();
    const result = await provider.parseCallback({
      query: { ...fields, signature: unsecured },
      body: undefined,
      headers: {},
    });
    expect(result).toMatchObject({ ok: false, reason: 'INVALID_SIGNATURE' });
  });

  it('rejects the right key with another algorithm (HS512)', async () => {
    const { provider, tx } = await settledTransaction();
    const fields = await fake.callbackFields(tx.reference, { alg: 'HS512' });
    const result = await provider.parseCallback({ query: fields, body: undefined, headers: {} });
    expect(result).toMatchObject({ ok: false, reason: 'INVALID_SIGNATURE' });
  });

  it('rejects an expired signature, judged by the injected clock', async () => {
    const { provider, tx } = await settledTransaction();
    const fields = await fake.callbackFields(tx.reference, { expiresInSeconds: 300 });
    const fresh = await provider.parseCallback({ query: fields, body: undefined, headers: {} });
    expect(fresh.ok).toBe(true);

    clock += 3600 * 1000;
    const late = await provider.parseCallback({ query: fields, body: undefined, headers: {} });
    expect(late).toMatchObject({ ok: false, reason: 'INVALID_SIGNATURE' });
  });

  it('reports a validly signed callback with an unknown or missing status as MALFORMED', async () => {
    const { provider, tx } = await settledTransaction();
    const fields = await fake.callbackFields(tx.reference);
    const { status: _status, ...withoutStatus } = fields;
    for (const query of [{ ...fields, status: 'DONE' }, withoutStatus]) {
      const result = await provider.parseCallback({ query, body: undefined, headers: {} });
      expect(result).toMatchObject({ ok: false, reason: 'MALFORMED' });
    }
  });

  it('never throws on garbage input', async () => {
    const provider = makeProvider();
    const inputs = [
      { query: {}, body: 42, headers: {} },
      { query: { signature: ['a', 'b'] }, body: null, headers: {} },
      { query: {}, body: '{not json', headers: {} },
      { query: null as unknown as Record<string, unknown>, body: undefined, headers: {} },
      { query: { signature: 'not.a.jwt', status: 'SUCCESSFUL' }, body: undefined, headers: {} },
    ];
    for (const input of inputs) {
      const result = await provider.parseCallback(input);
      expect(result.ok).toBe(false);
    }
  });
});
