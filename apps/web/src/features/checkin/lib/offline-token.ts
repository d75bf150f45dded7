import type { TicketPublicKey } from '@qless/contract';
import {
  type CompactTicketToken,
  compactTicketMessage,
  parseCompactTicketToken,
  TICKET_TOKEN_ALG,
  TICKET_TOKEN_ISSUER,
} from '@qless/contract/core';
import {
  base64url,
  decodeJwt,
  decodeProtectedHeader,
  importJWK,
  type JWTPayload,
  jwtVerify,
} from 'jose';
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
 * A compact token (today's QR: a code and the Ed25519 signature of it), checked
 * against each cached key. The code then finds the booking in the list, as a typed one
 * does. A browser without Ed25519 in WebCrypto takes it for its code alone, unverified.
 */
async function readCompactOffline(
  token: CompactTicketToken,
  keys: readonly TicketPublicKey[],
): Promise<OfflineToken> {
  const ticket = { kind: 'code', code: token.code } as const;
  let signature: Uint8Array<ArrayBuffer>;
  try {
    signature = new Uint8Array(base64url.decode(token.signature));
  } catch {
    return INVALID;
  }
  if (signature.length !== 64) return INVALID;
  let checked = false;
  for (const jwk of keys) {
    let key: CryptoKey;
    try {
      key = await crypto.subtle.importKey(
        'jwk',
        { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
        { name: 'Ed25519' },
        false,
        ['verify'],
      );
    } catch {
      continue;
    }
    checked = true;
    const message = compactTicketMessage(token.code);
    if (await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, message)) {
      return { ok: true, ticket, verified: true };
    }
  }
  return checked ? INVALID : { ok: true, ticket, verified: false };
}

/**
 * Reads a scanned token with no network: a compact token (above), or the JWT of tickets
 * issued before it, whose Ed25519 signature is checked against the key cached with
 * today's list. A token that cannot be checked here (an old HS256 ticket,
 * whose key is secret, or a browser without Ed25519 in WebCrypto) is taken for its code
 * alone, exactly as if the code had been typed; the server checks it when it is synced.
 */
export async function readTokenOffline(
  token: string,
  keys: readonly TicketPublicKey[],
): Promise<OfflineToken> {
  const compact = parseCompactTicketToken(token);
  if (compact) return readCompactOffline(compact, keys);
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
