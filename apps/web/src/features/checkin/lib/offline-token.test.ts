import type { TicketPublicKey } from '@qless/contract';
import { compactTicketMessage } from '@qless/contract/core';
import { base64url, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTokenOffline } from './offline-token';

const claims = { code: 'QL-7K4M-2QAB-XC9D', date: '2026-03-04', org: 'org-1' };
let keys: TicketPublicKey[];
let privateKey: CryptoKey;

async function sign(key: CryptoKey, kid = 'k1') {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', kid })
    .setSubject('booking-1')
    .setIssuer('qless')
    .setIssuedAt()
    .sign(key);
}

beforeAll(async () => {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  privateKey = pair.privateKey;
  const jwk = await exportJWK(pair.publicKey);
  keys = [{ kty: 'OKP', crv: 'Ed25519', x: String(jwk.x), kid: 'k1', alg: 'EdDSA', use: 'sig' }];
});

describe('readTokenOffline', () => {
  it('verifies a token signed by the cached key', async () => {
    expect(await readTokenOffline(await sign(privateKey), keys)).toEqual({
      ok: true,
      verified: true,
      ticket: {
        kind: 'token',
        bookingId: 'booking-1',
        code: claims.code,
        date: claims.date,
        organizationId: 'org-1',
      },
    });
  });

  it('refuses another key, a changed claim, alg=none and garbage', async () => {
    const other = (await generateKeyPair('EdDSA', { crv: 'Ed25519' })).privateKey;
    expect(await readTokenOffline(await sign(other), keys)).toEqual({
      ok: false,
      reason: 'INVALID_SIGNATURE',
    });
    expect(await readTokenOffline(await sign(privateKey, 'k2'), keys)).toMatchObject({ ok: false });
    const [header, , signature] = (await sign(privateKey)).split('.');
    const changed = base64url.encode(
      JSON.stringify({ ...claims, code: 'QL-2222-3333-4444', sub: 'booking-1', iss: 'qless' }),
    );
    expect(await readTokenOffline(`${header}.${changed}.${signature}`, keys)).toMatchObject({
      ok: false,
    });
    const none = base64url.encode(JSON.stringify({ alg: 'none' }));
    expect(await readTokenOffline(`${none}.${changed}.`, keys)).toMatchObject({ ok: false });
    expect(await readTokenOffline('not a token', keys)).toMatchObject({ ok: false });
  });

  it('takes an old HS256 ticket for its code alone (its key is secret), unverified', async () => {
    const old = await new SignJWT({ code: claims.code, date: claims.date })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('booking-1')
      .setIssuer('qless')
      .sign(new TextEncoder().encode('a-secret-the-device-never-has-000000'));
    expect(await readTokenOffline(old, keys)).toMatchObject({
      ok: true,
      verified: false,
      ticket: { code: claims.code, organizationId: null },
    });
  });

  it("verifies the compact token of today's QR (code + signature) with the cached key", async () => {
    const compact = await compactOf(privateKey, claims.code);
    expect(compact.length).toBeLessThanOrEqual(104);
    expect(await readTokenOffline(compact, keys)).toEqual({
      ok: true,
      verified: true,
      ticket: { kind: 'code', code: claims.code },
    });
  });

  it('refuses a compact token of another key, another code, or a changed signature', async () => {
    const other = (await generateKeyPair('EdDSA', { crv: 'Ed25519' })).privateKey;
    const invalid = { ok: false, reason: 'INVALID_SIGNATURE' };
    expect(await readTokenOffline(await compactOf(other, claims.code), keys)).toEqual(invalid);
    const signature = (await compactOf(privateKey, claims.code)).split('.')[1] ?? '';
    expect(await readTokenOffline(`QL-2222-3333-4444.${signature}`, keys)).toEqual(invalid);
    const changed = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(await readTokenOffline(`${claims.code}.${changed}`, keys)).toEqual(invalid);
  });
});

/** What the server's TicketSigner.sign makes: the code, a dot, the signature of its label. */
async function compactOf(key: CryptoKey, code: string): Promise<string> {
  const signature = await crypto.subtle.sign({ name: 'Ed25519' }, key, compactTicketMessage(code));
  return `${code}.${base64url.encode(new Uint8Array(signature))}`;
}
