/**
 * Hall links: a board on the wall and a kiosk at the door open their branch's queue by a token
 * in their link (made and revoked in Queue setup; only the hash kept). A board link reads the
 * line (queue-live.ts builds what it shows); a kiosk link only adds visitors to it (kiosk.ts).
 * The two tables have the same shape; a kiosk also says which paper its printer takes.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/schema.js';

export type HallLinkKind = 'board' | 'kiosk';
const TABLE = { board: 'boards', kiosk: 'kiosks' } as const;

/** Hall tokens are 32 random bytes in base64url; anything else is refused without a query. */
const HALL_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Only the hash is kept: a database dump does not put a board on a wall elsewhere nor a kiosk
 * at another door. The kind is hashed in, so a board's token never opens a kiosk.
 */
export function hashHallToken(kind: HallLinkKind, token: string): string {
  return createHash('sha256').update(`${kind}:v1:${token}`).digest('base64url');
}

export function newHallToken(kind: HallLinkKind): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashHallToken(kind, token) };
}

/** The live (not revoked) board or kiosk a link opens, or undefined. */
export async function findHallLink(
  db: Db,
  kind: HallLinkKind,
  token: string,
): Promise<{ id: string; organization_id: string } | undefined> {
  if (!HALL_TOKEN.test(token)) return undefined;
  // The same columns in both tables: one query, typed as the boards'.
  return db
    .selectFrom(TABLE[kind] as 'boards')
    .select(['id', 'organization_id'])
    .where('token_hash', '=', hashHallToken(kind, token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export function findBoardByToken(db: Db, token: string) {
  return findHallLink(db, 'board', token);
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

/**
 * A board or kiosk link revoked (kept, its link dead) if it is the organization's; its row, or
 * undefined. Revoking twice keeps the first time.
 */
export function revokeHallLink(
  trx: Db,
  kind: HallLinkKind,
  id: string,
  organizationId: string,
  now: Date,
) {
  return trx
    .updateTable(TABLE[kind] as 'boards')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .returning(['id', 'name', 'created_at', 'revoked_at'])
    .executeTakeFirst();
}
