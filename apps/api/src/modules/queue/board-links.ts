/**
 * Board links: a board on the wall opens its queue by a token in its link (made and revoked in
 * Queue setup; only the hash kept). What a board shows is built in queue-live.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/schema.js';

/** Board tokens are 32 random bytes in base64url; anything else is refused without a query. */
const BOARD_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Only the hash is kept: a database dump does not put boards' links on the wall elsewhere. */
export function hashBoardToken(token: string): string {
  return createHash('sha256').update(`board:v1:${token}`).digest('base64url');
}

export function newBoardToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashBoardToken(token) };
}

/** The live (not revoked) board a link opens, or undefined. */
export async function findBoardByToken(
  db: Db,
  token: string,
): Promise<{ id: string; organization_id: string } | undefined> {
  if (!BOARD_TOKEN.test(token)) return undefined;
  return db
    .selectFrom('boards')
    .select(['id', 'organization_id'])
    .where('token_hash', '=', hashBoardToken(token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export function listBoards(db: Db, organizationId: string) {
  return db
    .selectFrom('boards')
    .select(['id', 'name', 'created_at', 'revoked_at'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export type BoardRow = Awaited<ReturnType<typeof listBoards>>[number];

export function toBoard(row: BoardRow) {
  return {
    board_id: row.id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}
