import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/schema.js';
import { getOrCreateSecret } from '../../db/secrets.js';

/** Where the key that signs feedback links lives (app_secrets). */
export const FEEDBACK_LINK_SECRET = 'visit_feedback_hmac';

const ID_BYTES = 16;
const EXPIRY_BYTES = 4;
const MAC_BYTES = 16;
const SIGNED_BYTES = ID_BYTES + EXPIRY_BYTES;
/** 36 bytes in base64url: 48 characters, no padding. */
const TOKEN = /^[A-Za-z0-9_-]{48}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type FeedbackLink =
  | { kind: 'valid'; visitId: string; expiresAt: Date }
  | { kind: 'expired'; visitId: string; expiresAt: Date }
  | { kind: 'invalid' };

/**
 * A feedback link's token: the visit's id and the link's expiry, signed,
 * in 48 base64url characters so the SMS keeps to one part:
 * `base64url(visit id (16 bytes) ‖ expiry (uint32 seconds, big-endian) ‖ MAC)`, where MAC is
 * the first 128 bits of HMAC-SHA-256 of `visit-feedback:v1:` and those 20 bytes under one
 * secret shared by every process (app_secrets, like the visit and booking keys). Nothing
 * per link is stored; the expiry cannot be moved without the secret. A secret of its own:
 * a feedback token can never stand for a visit key, nor the reverse.
 */
export class FeedbackLinks {
  private constructor(private readonly secret: Buffer) {}

  static async load(db: Db): Promise<FeedbackLinks> {
    return new FeedbackLinks(Buffer.from(await getOrCreateSecret(db, FEEDBACK_LINK_SECRET)));
  }

  private mac(signed: Buffer): Buffer {
    return createHmac('sha256', this.secret)
      .update('visit-feedback:v1:')
      .update(signed)
      .digest()
      .subarray(0, MAC_BYTES);
  }

  /** The token of a visit's link, working until `expiresAt` (to the second, rounded down). */
  tokenFor(visitId: string, expiresAt: Date): string {
    if (!UUID.test(visitId)) throw new Error('feedback link: not a visit id');
    const signed = Buffer.alloc(SIGNED_BYTES);
    Buffer.from(visitId.replaceAll('-', ''), 'hex').copy(signed, 0);
    signed.writeUInt32BE(Math.floor(expiresAt.getTime() / 1000), ID_BYTES);
    return Buffer.concat([signed, this.mac(signed)]).toString('base64url');
  }

  /**
   * What a presented token says: its visit while it works, `expired` once its time passed
   * (only for a token this server signed), else `invalid` — altered, forged, cut, any other
   * form. The signature is compared in constant time, before the expiry is read.
   */
  read(token: string, now: Date): FeedbackLink {
    if (!TOKEN.test(token)) return { kind: 'invalid' };
    const bytes = Buffer.from(token, 'base64url');
    const signed = bytes.subarray(0, SIGNED_BYTES);
    if (!timingSafeEqual(bytes.subarray(SIGNED_BYTES), this.mac(signed))) {
      return { kind: 'invalid' };
    }
    const hex = signed.subarray(0, ID_BYTES).toString('hex');
    const visitId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    const expiresAt = new Date(signed.readUInt32BE(ID_BYTES) * 1000);
    return now.getTime() < expiresAt.getTime()
      ? { kind: 'valid', visitId, expiresAt }
      : { kind: 'expired', visitId, expiresAt };
  }
}
