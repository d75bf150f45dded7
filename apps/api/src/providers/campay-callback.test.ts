import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, UnsecuredJWT } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeCampay } from '../../test/support/campay-fake.js';
import { useFakeCampay } from '../../test/support/campay-test-setup.js';

const campay = useFakeCampay();
const { makeProvider, collectOk, advanceClock } = campay;
let fake: FakeCampay;
beforeEach(() => {
  fake = campay.fake;
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
        endpoint: 'collect',
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

  it("is tested against signatures like Campay's examples: iat, nbf, source only", async () => {
    const { tx } = await settledTransaction();
    const { signature } = await fake.callbackFields(tx.reference);
    expect(decodeProtectedHeader(signature as string)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(signature as string);
    expect(Object.keys(claims).sort()).toEqual(['iat', 'nbf', 'source']);
    const issuedAt = Math.floor(campay.now().getTime() / 1000);
    expect(claims).toEqual({ source: 'CamPay', iat: issuedAt, nbf: issuedAt });
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

    advanceClock(3600 * 1000);
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
