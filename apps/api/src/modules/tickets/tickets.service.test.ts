import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { type TicketRecord, TicketSigner } from './tickets.service.js';

const SECRET = 'a-ticket-signing-key-of-at-least-32-chars';
const record: TicketRecord = {
  booking_id: '0f6a1c3e-8f1b-4c8e-9b1d-2d3c4e5f6a7b',
  status: 'confirmed',
  ticket_code: 'QL-7K4M-2Q',
  booking_date: '2026-03-05',
  confirmed_at: new Date('2026-03-04T08:35:00Z'),
  cus_name: 'Ngono Marie',
  cus_email: 'ngono.marie@example.com',
  phone_number: '+237677123456',
  service_name: 'Counter 15',
  organization_name: 'Guichet Unique',
  location: 'Rue Joss, Bonanjo, Douala',
  time_zone: 'Africa/Douala',
  start_time: '10:00:00',
};

function forge(claims: { issuer?: string; key?: string; alg?: 'HS256' | 'HS512' }) {
  let jwt = new SignJWT({ code: record.ticket_code, date: record.booking_date })
    .setProtectedHeader({ alg: claims.alg ?? 'HS256' })
    .setSubject(record.booking_id)
    .setIssuedAt();
  if (claims.issuer) jwt = jwt.setIssuer(claims.issuer);
  return jwt.sign(new TextEncoder().encode(claims.key ?? SECRET));
}

describe('TicketSigner', () => {
  const signer = new TicketSigner(SECRET);

  it('reads back what it signed', async () => {
    const token = await signer.sign(record);
    expect(await signer.read(token)).toEqual({
      bookingId: record.booking_id,
      code: record.ticket_code,
    });
    // Deterministic: issued at the confirmation time, so the same ticket is the same token.
    expect(await signer.sign(record)).toBe(token);
  });

  it('refuses a token with the right key but another issuer, or none', async () => {
    expect(await signer.read(await forge({ issuer: 'qless' }))).not.toBeNull();
    expect(await signer.read(await forge({ issuer: 'someone-else' }))).toBeNull();
    expect(await signer.read(await forge({}))).toBeNull();
  });

  it('refuses another key, another algorithm and garbage', async () => {
    const otherKey = 'another-key-that-is-also-long-enough-1234';
    expect(await signer.read(await forge({ issuer: 'qless', key: otherKey }))).toBeNull();
    expect(await signer.read(await forge({ issuer: 'qless', alg: 'HS512' }))).toBeNull();
    expect(await signer.read('not.a.token')).toBeNull();
    expect(await signer.read('')).toBeNull();
  });
});
