/**
 * A booking's short link (decision 141): `/t/{code}` in its SMS, 12 characters of Crockford's
 * base 32 (60 bits), made the first time a message about it is written and kept with the
 * booking. As good as the ticket link it redirects to: opening is limited per address
 * (`ticket-link-opens-per-address`, generous, as many customers share a carrier's address),
 * and the code space does the rest: with a million bookings, a guess hits one in 10¹².
 */
import { normalizeShortCode, TICKET_LINK_CODE_LENGTH } from '@qless/contract';
import type { Db } from '../../db/schema.js';
import { randomShortCode } from '../short-codes.js';

/**
 * The booking's code, made now if it has none. A clash with another booking's code (about one
 * in 10¹² at a million bookings) draws again; a code set meanwhile by another writer is kept.
 */
export async function ticketLinkCode(db: Db, bookingId: string): Promise<string> {
  for (let tries = 0; tries < 5; tries++) {
    const row = await db
      .selectFrom('bookings')
      .select('link_code')
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    if (row.link_code) return row.link_code;
    const code = randomShortCode(TICKET_LINK_CODE_LENGTH);
    const taken = await db
      .selectFrom('bookings')
      .select('id')
      .where('link_code', '=', code)
      .executeTakeFirst();
    if (taken) continue;
    const set = await db
      .updateTable('bookings')
      .set({ link_code: code })
      .where('id', '=', bookingId)
      .where('link_code', 'is', null)
      .returning('link_code')
      .executeTakeFirst();
    if (set?.link_code) return set.link_code;
  }
  throw new Error('No ticket link code after 5 draws');
}

/** A typed or clicked code in its stored form (any case, O for 0, I or L for 1), or null. */
export function normalizeTicketLinkCode(typed: string): string | null {
  return normalizeShortCode(typed, TICKET_LINK_CODE_LENGTH);
}

/** The booking a code opens, with its ticket (none before it is paid), or undefined. */
export function bookingOfTicketLink(db: Db, code: string) {
  return db
    .selectFrom('bookings')
    .select(['id', 'ticket_code'])
    .where('link_code', '=', code)
    .executeTakeFirst();
}
