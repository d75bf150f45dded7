/**
 * The code shown in the hall (decision 125): a proof of presence for the
 * join page. The board in the hall shows a 4-digit code that changes every 2 minutes; an
 * organization that asks for it takes a join from its poster only with the code of the
 * current or the previous window. The code is an HMAC under one secret of the database, so
 * every process computes the same code and nothing is stored.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { JOIN_CODE_WINDOW_SECONDS } from '@qless/contract';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/schema.js';
import { getOrCreateSecret } from '../../db/secrets.js';
import { AppError } from '../../errors.js';

/** Where the key that derives the hall's codes lives (app_secrets). */
export const JOIN_CODE_SECRET = 'queue_join_code_hmac';
export const JOIN_CODE_WINDOW_MS = JOIN_CODE_WINDOW_SECONDS * 1000;
const FOUR_DIGITS = /^\d{4}$/;

/** The window an instant falls in: floor(t / 120 s). */
export function joinCodeWindow(at: Date): number {
  return Math.floor(at.getTime() / JOIN_CODE_WINDOW_MS);
}

/**
 * The code of one organization in one window:
 * HMAC-SHA256(secret, organization_id + ':' + window), the digest read as one big-endian
 * integer, reduced mod 10 000, zero-padded.
 */
export function joinCodeOf(secret: Buffer | string, organizationId: string, window: number) {
  const mac = createHmac('sha256', secret).update(`${organizationId}:${window}`).digest('hex');
  return String(BigInt(`0x${mac}`) % 10_000n).padStart(4, '0');
}

export const joinCodeRefused = () =>
  new AppError(
    403,
    'JOIN_CODE_INVALID',
    'This code is not the one shown on the screen in the hall now. Read it again and retry.',
  );

export class JoinCodes {
  private constructor(
    private readonly secret: Buffer,
    private readonly clock: Clock,
  ) {}

  static async load(db: Db, clock: Clock): Promise<JoinCodes> {
    return new JoinCodes(Buffer.from(await getOrCreateSecret(db, JOIN_CODE_SECRET)), clock);
  }

  /** The code the board shows now, and when the next one replaces it. */
  current(organizationId: string): { code: string; changesAt: Date } {
    const window = joinCodeWindow(this.clock.now());
    return {
      code: joinCodeOf(this.secret, organizationId, window),
      changesAt: new Date((window + 1) * JOIN_CODE_WINDOW_MS),
    };
  }

  /** The code of the current or the previous window (a visitor who read it late has 2–4 min). */
  accepts(organizationId: string, presented: string | null | undefined): boolean {
    if (!presented || !FOUR_DIGITS.test(presented)) return false;
    const window = joinCodeWindow(this.clock.now());
    let right = false;
    for (const w of [window, window - 1]) {
      const expected = Buffer.from(joinCodeOf(this.secret, organizationId, w));
      // Both compared, in constant time: how long it takes says nothing of which matched.
      if (timingSafeEqual(expected, Buffer.from(presented))) right = true;
    }
    return right;
  }
}
