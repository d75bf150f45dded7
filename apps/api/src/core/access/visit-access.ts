import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/schema.js';
import { getOrCreateSecret } from '../../db/secrets.js';

/** Where the key that derives visit keys lives (app_secrets). */
export const VISIT_ACCESS_SECRET = 'visit_access_hmac';

/**
 * A visit's key (the walk-in's confirmation page, the SMS link) is an HMAC of its id under one
 * secret shared by every process, like a booking's: handed out again without being stored.
 * It reads that one visit's turn, nothing else. A secret of its own, so a visit key can never
 * stand for a booking key of the same id, nor the reverse.
 */
export class VisitAccess {
  private constructor(private readonly secret: Buffer) {}

  static async load(db: Db): Promise<VisitAccess> {
    return new VisitAccess(Buffer.from(await getOrCreateSecret(db, VISIT_ACCESS_SECRET)));
  }

  /** 128 bits (22 characters): enough against guessing, short enough for a one-part SMS. */
  keyFor(visitId: string): string {
    return createHmac('sha256', this.secret)
      .update(`visit-access:v1:${visitId}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }

  /** Constant-time comparison of a presented key with the visit's own. */
  verify(visitId: string, presented: string | null | undefined): boolean {
    if (!presented) return false;
    const expected = Buffer.from(this.keyFor(visitId));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/**
 * Whether `key` opens a visit's turn: the visit's own key, or for a booked visit its
 * booking's customer key (the ticket page and My bookings hold that one).
 */
export function opensVisitTurn(
  visit: { id: string; booking_id: string | null },
  key: string | null | undefined,
  access: { visits: VisitAccess; bookings: { verify(bookingId: string, key: string): boolean } },
): boolean {
  if (!key) return false;
  if (access.visits.verify(visit.id, key)) return true;
  return visit.booking_id !== null && access.bookings.verify(visit.booking_id, key);
}
