import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/schema.js';
import { getOrCreateSecret } from '../../db/secrets.js';

/** Where the key that derives booking access keys lives (app_secrets). */
export const BOOKING_ACCESS_SECRET = 'booking_access_hmac';

/**
 * A booking's access key is an HMAC of its id under one secret shared by every process, so
 * the server can hand it out again (initiation, message links, code + phone digits) without
 * storing it. Anyone holding it may see and change that one booking; nothing else.
 */
export class BookingAccess {
  private constructor(private readonly secret: Buffer) {}

  static async load(db: Db): Promise<BookingAccess> {
    return new BookingAccess(Buffer.from(await getOrCreateSecret(db, BOOKING_ACCESS_SECRET)));
  }

  keyFor(bookingId: string): string {
    return createHmac('sha256', this.secret)
      .update(`booking-access:v1:${bookingId}`)
      .digest('base64url');
  }

  /** Constant-time comparison of a presented key with the booking's own. */
  verify(bookingId: string, presented: string | null | undefined): boolean {
    if (!presented) return false;
    const expected = Buffer.from(this.keyFor(bookingId));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
