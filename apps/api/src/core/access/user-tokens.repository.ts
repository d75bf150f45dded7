import type { LinkProblem } from '@qless/contract';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { hashToken, newToken } from './sessions.js';

export type LinkPurpose = 'invite' | 'reset';

/**
 * A new single-use link for a user; earlier unused links of the same purpose stop working
 * (a re-sent invitation or a second reset request replaces the first). Returns the token,
 * which goes into the mail (and, for an invitation on a server without SMTP, to the
 * inviter, who passes it on): the database keeps only its hash.
 */
export async function issueLinkToken(
  db: Db,
  userId: string,
  purpose: LinkPurpose,
  now: Date,
  validHours: number,
): Promise<string> {
  await db
    .deleteFrom('user_tokens')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
  const { token, hash } = newToken();
  await db
    .insertInto('user_tokens')
    .values({
      token_hash: hash,
      user_id: userId,
      purpose,
      created_at: now,
      expires_at: new Date(now.getTime() + validHours * 3_600_000),
      used_at: null,
    })
    .execute();
  return token;
}

/** Why a token cannot be used now, or null when it can (without using it). */
export async function linkProblem(
  db: Db,
  token: string,
  purpose: LinkPurpose,
  now: Date,
): Promise<{ problem: LinkProblem | null; userId: string | null }> {
  const row = await db
    .selectFrom('user_tokens')
    .select(['user_id', 'expires_at', 'used_at'])
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  if (!row) return { problem: 'INVALID_TOKEN', userId: null };
  if (row.used_at) return { problem: 'TOKEN_USED', userId: row.user_id };
  if (row.expires_at <= now) return { problem: 'TOKEN_EXPIRED', userId: row.user_id };
  return { problem: null, userId: row.user_id };
}

const MESSAGES: Record<LinkProblem, string> = {
  INVALID_TOKEN: 'This link is not valid.',
  TOKEN_EXPIRED: 'This link has expired. Ask for a new one.',
  TOKEN_USED: 'This link has already been used.',
};

export function linkError(problem: LinkProblem): AppError {
  return new AppError(400, problem, MESSAGES[problem]);
}

/**
 * Uses a token: one conditional UPDATE, so of two requests racing with one link exactly one
 * gets the user id. Every other outcome is a 400 saying why.
 */
export async function consumeLinkToken(
  db: Db,
  token: string,
  purpose: LinkPurpose,
  now: Date,
): Promise<string> {
  const used = await db
    .updateTable('user_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  if (used) return used.user_id;
  const { problem } = await linkProblem(db, token, purpose, now);
  throw linkError(problem ?? 'TOKEN_USED');
}

/** After a password is set, the user's other open links of `purpose` are spent too. */
export async function spendOtherLinks(
  db: Db,
  userId: string,
  purpose: LinkPurpose,
  now: Date,
): Promise<void> {
  await db
    .updateTable('user_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}
