import { parseCompactTicketToken } from '@qless/contract';
import {
  base64url,
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  type JWK,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateTicketKeyJwk, TicketSigner, type TicketToSign } from './ticket-signer.js';

const LEGACY = 'a-ticket-signing-key-of-at-least-32-chars';
const ticket: TicketToSign = {
  booking_id: '0f6a1c3e-8f1b-4c8e-9b1d-2d3c4e5f6a7b',
  organization_id: '5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6',
  ticket_code: 'QL-7K4M-2QAB-XC9D',
  booking_date: '2026-03-05',
  confirmed_at: new Date('2026-03-04T08:35:00Z'),
};
const claims = { code: ticket.ticket_code, date: ticket.booking_date, org: ticket.organization_id };

function hs(key: string | Uint8Array, options: { issuer?: string; alg?: string } = {}) {
  let jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'HS256' })
    .setSubject(ticket.booking_id)
    .setIssuedAt();
  if (options.issuer !== '') jwt = jwt.setIssuer(options.issuer ?? 'qless');
  return jwt.sign(typeof key === 'string' ? new TextEncoder().encode(key) : key);
}

describe('TicketSigner (Ed25519, with HS256 kept for verification)', () => {
  let jwk: JWK;
  let signer: TicketSigner;
  beforeAll(async () => {
    jwk = await generateTicketKeyJwk();
    signer = await TicketSigner.create(jwk, LEGACY);
  });

  it('signs a compact token for the QR: the code and its signature, 104 characters', async () => {
    const token = await signer.sign(ticket);
    expect(token).toMatch(/^QL-7K4M-2QAB-XC9D\.[A-Za-z0-9_-]{86}$/);
    // The JWT in a link that it replaces was 471 characters.
    expect(token.length).toBeLessThanOrEqual(104);
    expect(await signer.sign(ticket)).toBe(token);
    const parsed = parseCompactTicketToken(token);
    expect(parsed && signer.verifyCompact(parsed)).toBe(true);
    // Our key after a restart verifies it; another key does not.
    const again = await TicketSigner.create(jwk, null);
    expect(parsed && again.verifyCompact(parsed)).toBe(true);
    const stranger = await TicketSigner.create(await generateTicketKeyJwk(), null);
    expect(parsed && stranger.verifyCompact(parsed)).toBe(false);
  });

  it('refuses a compact token whose code or signature was changed', async () => {
    const token = await signer.sign(ticket);
    const [, signature = ''] = token.split('.');
    const otherCode = { code: 'QL-2222-3333-4444', signature };
    expect(signer.verifyCompact(otherCode)).toBe(false);
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect(signer.verifyCompact({ code: ticket.ticket_code, signature: flipped })).toBe(false);
    expect(signer.verifyCompact({ code: ticket.ticket_code, signature: 'A'.repeat(86) })).toBe(
      false,
    );
    // A JWT's signature by the same key is not a ticket's (the message has its own label).
    const jwt = await signer.signJwt(ticket);
    const jwtSignature = jwt.split('.')[2] ?? '';
    expect(signer.verifyCompact({ code: ticket.ticket_code, signature: jwtSignature })).toBe(false);
  });

  it('still signs and reads the EdDSA JWTs of tickets issued before compact tokens', async () => {
    const token = await signer.signJwt(ticket);
    expect(decodeProtectedHeader(token)).toEqual({
      alg: 'EdDSA',
      typ: 'JWT',
      kid: signer.publicKeys()[0]?.kid,
    });
    expect(decodeJwt(token)).toEqual({
      sub: ticket.booking_id,
      code: ticket.ticket_code,
      date: ticket.booking_date,
      org: ticket.organization_id,
      iss: 'qless',
      iat: Date.parse('2026-03-04T08:35:00Z') / 1000,
    });
    expect(await signer.read(token)).toEqual({
      bookingId: ticket.booking_id,
      code: ticket.ticket_code,
      date: ticket.booking_date,
      organizationId: ticket.organization_id,
      legacy: false,
    });
    expect(await signer.signJwt(ticket)).toBe(token);
  });

  it('publishes only the public half of its key', async () => {
    const [key] = signer.publicKeys();
    expect(key).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: jwk.x,
      kid: jwk.kid,
      alg: 'EdDSA',
      use: 'sig',
    });
    expect(JSON.stringify(signer.publicKeys())).not.toContain(String(jwk.d));
  });

  it('reads a token of the same key after a restart (the key is the stored JWK)', async () => {
    const again = await TicketSigner.create(jwk, null);
    expect(await again.read(await signer.signJwt(ticket))).not.toBeNull();
  });

  it('reads old HS256 tokens with the legacy key, marked legacy; never without it', async () => {
    const old = await hs(LEGACY);
    expect(await signer.read(old)).toMatchObject({ bookingId: ticket.booking_id, legacy: true });
    expect(await (await TicketSigner.create(jwk, null)).read(old)).toBeNull();
    expect(await signer.read(await hs(LEGACY, { issuer: 'someone-else' }))).toBeNull();
    expect(await signer.read(await hs(LEGACY, { issuer: '' }))).toBeNull();
    expect(await signer.read(await hs('another-key-that-is-also-long-enough-1234'))).toBeNull();
    expect(await signer.read(await hs(LEGACY, { alg: 'HS512' }))).toBeNull();
  });

  it('refuses alg=none, another Ed25519 key (even with our kid), key confusion and garbage', async () => {
    const [ours] = signer.publicKeys();
    const unsecured = new UnsecuredJWT(claims)
      .setSubject(ticket.booking_id)
      .setIssuer('qless')
      .encode();
    expect(await signer.read(unsecured)).toBeNull();
    // A token whose header claims none but carries our real signature is still refused.
    const real = (await signer.signJwt(ticket)).split('.');
    const noneHeader = base64url.encode(JSON.stringify({ alg: 'none', kid: ours?.kid }));
    expect(await signer.read(`${noneHeader}.${real[1]}.${real[2]}`)).toBeNull();

    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const stranger = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: ours?.kid })
      .setSubject(ticket.booking_id)
      .setIssuer('qless')
      .setIssuedAt()
      .sign(privateKey);
    expect(await signer.read(stranger)).toBeNull();

    // HMAC keyed with our public key (the classic RS/HS confusion) is not an HS256 ticket.
    const publicBytes = base64url.decode(String(ours?.x));
    expect(await signer.read(await hs(publicBytes))).toBeNull();
    const publicJson = new TextEncoder().encode(JSON.stringify(ours));
    expect(await signer.read(await hs(publicJson))).toBeNull();

    expect(await signer.read('not.a.token')).toBeNull();
    expect(await signer.read('')).toBeNull();
  });
});
