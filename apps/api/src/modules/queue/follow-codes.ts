/**
 * The short code on a walk-in's slip (decision 135): 8 characters of Crockford's base 32 (about
 * 10¹² codes), typed at `/f/<code>` on any phone to open the visitor's turn. It is as good as
 * the visit's link, so lookups are limited per address (limits/hall-limits.ts); a code opens
 * only a visit of today or yesterday (by UTC date), so old slips open nothing.
 */
import { FOLLOW_CODE_LENGTH } from '@qless/contract';
import { randomShortCode } from '../../core/short-codes.js';
import type { Db } from '../../db/schema.js';

export function newFollowCode(): string {
  return randomShortCode(FOLLOW_CODE_LENGTH);
}

/**
 * A code no visit has (a unique index says so too): a clash is about one in a million at a
 * million visits, so a second draw is rare and a sixth one never needed.
 */
export async function freshFollowCode(trx: Db): Promise<string> {
  for (let tries = 0; tries < 5; tries++) {
    const code = newFollowCode();
    const taken = await trx
      .selectFrom('visits')
      .select('id')
      .where('follow_code', '=', code)
      .executeTakeFirst();
    if (!taken) return code;
  }
  throw new Error('No free follow code after 5 draws');
}

/** The visit a code opens: dated `since` or later (any organization), or undefined. */
export function visitOfFollowCode(db: Db, code: string, since: string) {
  return db
    .selectFrom('visits')
    .select(['id', 'visit_date'])
    .where('follow_code', '=', code)
    .where('visit_date', '>=', since)
    .executeTakeFirst();
}
