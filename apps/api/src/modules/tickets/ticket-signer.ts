import {
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign as signBytes,
  verify as verifyBytes,
} from 'node:crypto';
import {
  type CompactTicketToken,
  compactTicketMessage,
  TICKET_TOKEN_ALG,
  TICKET_TOKEN_ISSUER,
  type TicketPublicKey,
  type TicketTokenClaims,
} from '@qless/contract';
import {
  base64url,
  CompactSign,
  type CryptoKey,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose';
import type { Db } from '../../db/schema.js';
import { getOrCreateSecretWith, readSecret } from '../../db/secrets.js';

/** Where the Ed25519 private key lives (app_secrets), as a JWK in JSON. */
export const TICKET_KEY_SECRET = 'ticket_ed25519_jwk';
/** The HS256 key of tickets issued before Ed25519; now only verifies them. */
export const LEGACY_TICKET_KEY_SECRET = 'ticket_signing_key';

/** What a verified token says. `legacy`: an HS256 token, valid only until its date passes. */
export interface VerifiedTicketClaims {
  bookingId: string;
  code: string;
  date: string;
  organizationId: string | null;
  legacy: boolean;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The same pair for node:crypto, which signs and verifies compact tokens. */
  privateKeyObject: KeyObject;
  publicKeyObject: KeyObject;
  publicJwk: TicketPublicKey;
}

/** A new Ed25519 key pair's private JWK (with its kid), as stored in app_secrets. */
export async function generateTicketKeyJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(TICKET_TOKEN_ALG, {
    crv: 'Ed25519',
    extractable: true,
  });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: TICKET_TOKEN_ALG, use: 'sig' };
}

async function importSigningKey(privateJwk: JWK): Promise<SigningKey> {
  const { d: _private, ...publicPart } = privateJwk;
  if (publicPart.kty !== 'OKP' || publicPart.crv !== 'Ed25519' || !publicPart.x) {
    throw new Error('the ticket signing key is not an Ed25519 JWK');
  }
  const kid = publicPart.kid ?? (await calculateJwkThumbprint(publicPart));
  const privateKey = await importJWK(privateJwk, TICKET_TOKEN_ALG);
  const publicKey = await importJWK(publicPart, TICKET_TOKEN_ALG);
  if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) {
    throw new Error('the ticket signing key did not import as a key pair');
  }
  return {
    kid,
    privateKey,
    publicKey,
    privateKeyObject: createPrivateKey({ key: { ...privateJwk }, format: 'jwk' }),
    publicKeyObject: createPublicKey({ key: { ...publicPart }, format: 'jwk' }),
    publicJwk: { kty: 'OKP', crv: 'Ed25519', x: publicPart.x, kid, alg: 'EdDSA', use: 'sig' },
  };
}

function claimsOf(payload: JWTPayload, legacy: boolean): VerifiedTicketClaims | null {
  const { sub, code, date, org } = payload;
  if (typeof sub !== 'string' || typeof code !== 'string' || typeof date !== 'string') {
    return null;
  }
  if (!legacy && typeof org !== 'string') return null;
  return {
    bookingId: sub,
    code,
    date,
    organizationId: typeof org === 'string' ? org : null,
    legacy,
  };
}

export interface TicketToSign {
  booking_id: string;
  organization_id: string;
  ticket_code: string;
  booking_date: string;
  confirmed_at: Date | null;
}

/**
 * Signs ticket tokens with Ed25519 (so a counter can check them offline with the public
 * key) and reads them back. Each key pins its algorithm: the Ed25519 key reads EdDSA only,
 * the legacy HMAC key HS256 only, chosen by the token's header; `none` is never accepted.
 */
export class TicketSigner {
  private constructor(
    private readonly current: SigningKey,
    private readonly legacyKey: Uint8Array | null,
  ) {}

  static async create(privateJwk: JWK, legacySecret: string | null): Promise<TicketSigner> {
    return new TicketSigner(
      await importSigningKey(privateJwk),
      legacySecret ? new TextEncoder().encode(legacySecret) : null,
    );
  }

  /**
   * The deployment's signer: the Ed25519 key from app_secrets (the first process to start
   * generates it, the others read it) and, for verification only, the HS256 key of the
   * tickets issued before (configured, or the secret those processes generated).
   */
  static async load(db: Db, configuredLegacySecret: string | null): Promise<TicketSigner> {
    const stored = await getOrCreateSecretWith(db, TICKET_KEY_SECRET, async () =>
      JSON.stringify(await generateTicketKeyJwk()),
    );
    const legacy = configuredLegacySecret ?? (await readSecret(db, LEGACY_TICKET_KEY_SECRET));
    return TicketSigner.create(JSON.parse(stored) as JWK, legacy);
  }

  /** The keys that verify tokens (published for offline checks). */
  publicKeys(): TicketPublicKey[] {
    return [this.current.publicJwk];
  }

  /**
   * The token of a ticket's QR: its code and the Ed25519 signature of it (see
   * parseCompactTicketToken). Deterministic (Ed25519 is), so a booking's QR never changes.
   */
  async sign(ticket: TicketToSign): Promise<string> {
    const message = compactTicketMessage(ticket.ticket_code);
    const signature = signBytes(null, message, this.current.privateKeyObject);
    return `${ticket.ticket_code}.${base64url.encode(signature)}`;
  }

  /**
   * A document signed by the deployment's key as a compact JWS (EdDSA, `kid` in its header):
   * anyone verifies it with the key of GET /tickets/public-key (e.g. the day's calls, 139).
   */
  async signDocument(payload: object, type: string): Promise<string> {
    return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: TICKET_TOKEN_ALG, kid: this.current.kid, typ: type })
      .sign(this.current.privateKey);
  }

  /** Whether a compact token's signature is ours (any key that verifies). */
  verifyCompact(token: CompactTicketToken): boolean {
    let signature: Uint8Array;
    try {
      signature = base64url.decode(token.signature);
    } catch {
      return false;
    }
    if (signature.length !== 64) return false;
    try {
      const message = compactTicketMessage(token.code);
      return verifyBytes(null, message, this.current.publicKeyObject, signature);
    } catch {
      return false;
    }
  }

  /**
   * The JWT that tickets carried before compact tokens (their PDFs hold it in a link);
   * `read` still accepts it. Deterministic for a booking: issued at its confirmation time.
   */
  async signJwt(ticket: TicketToSign): Promise<string> {
    const claims: Omit<TicketTokenClaims, 'sub' | 'iat' | 'iss'> = {
      code: ticket.ticket_code,
      date: ticket.booking_date,
      org: ticket.organization_id,
    };
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: TICKET_TOKEN_ALG, typ: 'JWT', kid: this.current.kid })
      .setSubject(ticket.booking_id)
      .setIssuer(TICKET_TOKEN_ISSUER)
      .setIssuedAt(Math.floor((ticket.confirmed_at ?? new Date(0)).getTime() / 1000))
      .sign(this.current.privateKey);
  }

  /** The claims of a token signed by one of our keys, or null. */
  async read(token: string): Promise<VerifiedTicketClaims | null> {
    try {
      const { alg, kid } = decodeProtectedHeader(token);
      if (alg === TICKET_TOKEN_ALG && kid === this.current.kid) {
        // `typ` too: the same key signs the day's records of calls (decision 139).
        const { payload } = await jwtVerify(token, this.current.publicKey, {
          algorithms: [TICKET_TOKEN_ALG],
          issuer: TICKET_TOKEN_ISSUER,
          typ: 'JWT',
        });
        return claimsOf(payload, false);
      }
      if (alg === 'HS256' && this.legacyKey) {
        const { payload } = await jwtVerify(token, this.legacyKey, {
          algorithms: ['HS256'],
          issuer: TICKET_TOKEN_ISSUER,
        });
        return claimsOf(payload, true);
      }
      return null;
    } catch {
      return null;
    }
  }
}
