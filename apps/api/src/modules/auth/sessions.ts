import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '@qless/contract';
import type { AuthConfig } from '../../config.js';
import type { Db } from '../../db/schema.js';

/** A bearer token (256 random bits) and its SHA-256, which is all the database keeps. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  organization_id: string | null;
}

export interface Session {
  tokenHash: string;
  user: SessionUser;
  expiresAt: Date;
}

/** Writes of last-use are skipped within this interval, so reads do not each cost a write. */
const TOUCH_EVERY_MS = 60_000;

export async function createSession(
  db: Db,
  config: AuthConfig,
  userId: string,
  now: Date,
  userAgent: string | null,
): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash } = newToken();
  const absolute = new Date(now.getTime() + config.sessionAbsoluteHours * 3_600_000);
  const idle = new Date(now.getTime() + config.sessionIdleMinutes * 60_000);
  const expiresAt = idle < absolute ? idle : absolute;
  await db
    .insertInto('sessions')
    .values({
      token_hash: hash,
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
      absolute_expires_at: absolute,
      revoked_at: null,
      user_agent: userAgent ? userAgent.slice(0, 300) : null,
    })
    .execute();
  return { token, expiresAt };
}

/**
 * The live session of a token, its expiry slid forward (never past the absolute limit);
 * null when the token is unknown, revoked, expired or its account disabled.
 */
export async function findSession(
  db: Db,
  config: AuthConfig,
  token: string,
  now: Date,
): Promise<Session | null> {
  const tokenHash = hashToken(token);
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.last_seen_at',
      's.expires_at',
      's.absolute_expires_at',
      'u.id',
      'u.email',
      'u.name',
      'u.role',
      'u.organization_id',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('s.absolute_expires_at', '>', now)
    .where('u.active', '=', true)
    .executeTakeFirst();
  if (!row) return null;
  let expiresAt = row.expires_at;
  if (now.getTime() - row.last_seen_at.getTime() >= TOUCH_EVERY_MS) {
    const idle = new Date(now.getTime() + config.sessionIdleMinutes * 60_000);
    expiresAt = idle < row.absolute_expires_at ? idle : row.absolute_expires_at;
    await db
      .updateTable('sessions')
      .set({ last_seen_at: now, expires_at: expiresAt })
      .where('token_hash', '=', tokenHash)
      .execute();
  }
  const { id, email, name, role, organization_id } = row;
  return { tokenHash, user: { id, email, name, role, organization_id }, expiresAt };
}

export async function revokeSession(db: Db, tokenHash: string, now: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every session of a user but `keep` (the one that changed the password, if any). */
export async function revokeUserSessions(
  db: Db,
  userId: string,
  now: Date,
  keep: string | null = null,
): Promise<void> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keep) query = query.where('token_hash', '<>', keep);
  await query.execute();
}
