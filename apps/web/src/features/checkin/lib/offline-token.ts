import type { TicketPublicKey } from '@qless/contract';
import { TICKET_TOKEN_ALG, TICKET_TOKEN_ISSUER } from '@qless/contract/core';
import { decodeJwt, decodeProtectedHeader, importJWK, type JWTPayload, jwtVerify } from 'jose';
import type { TicketRef } from './offline-rules';

export type OfflineToken =
  | { ok: true; ticket: TicketRef; verified: boolean }
  | { ok: false; reason: 'INVALID_SIGNATURE' };

function refOf(payload: JWTPayload): TicketRef | null {
  const { sub, code, date, org } = payload;
  if (typeof sub !== 'string' || typeof code !== 'string' || typeof date !== 'string') return null;
  return {
    kind: 'token',
    bookingId: sub,
    code,
    date,
    organizationId: typeof org === 'string' ? org : null,
  };
}

const INVALID = { ok: false, reason: 'INVALID_SIGNATURE' } as const;

/**
 * Reads a scanned token with no network: its Ed25519 signature is checked against the key
 * cached with today's list. A token that cannot be checked here (an old HS256 ticket,
 * whose key is secret, or a browser without Ed25519 in WebCrypto) is taken for its code
 * alone, exactly as if the code had been typed; the server checks it when it is synced.
 */
export async function readTokenOffline(
  token: string,
  keys: readonly TicketPublicKey[],
): Promise<OfflineToken> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  let unverified: TicketRef | null;
  try {
    header = decodeProtectedHeader(token);
    unverified = refOf(decodeJwt(token));
  } catch {
    return INVALID;
  }
  if (!unverified) return INVALID;
  if (header.alg === 'HS256') return { ok: true, ticket: unverified, verified: false };
  if (header.alg !== TICKET_TOKEN_ALG) return INVALID;
  const jwk = keys.find((k) => k.kid === header.kid);
  if (!jwk) return INVALID;
  let key: Awaited<ReturnType<typeof importJWK>>;
  try {
    key = await importJWK(jwk, TICKET_TOKEN_ALG);
  } catch {
    return { ok: true, ticket: unverified, verified: false };
  }
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [TICKET_TOKEN_ALG],
      issuer: TICKET_TOKEN_ISSUER,
    });
    const ticket = refOf(payload);
    return ticket ? { ok: true, ticket, verified: true } : INVALID;
  } catch {
    return INVALID;
  }
}
