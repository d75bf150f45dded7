import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '@qless/contract';
import { sql } from 'kysely';
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
  /**
   * The branch the caller acts on: their own, or another of their scope that the request
   * named (the organization area's branch switch, see auth-guard.ts). Null for operators.
   */
  organization_id: string | null;
  /** The branch the account belongs to. */
  home_organization_id: string | null;
  /**
   * Every branch the caller may act on (decision 024): for an organization admin, each
   * branch of their organization; for a branch manager or staff, their own branch; empty for
   * operators, who may act on any.
   */
  branch_ids: readonly string[];
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
      // An organization admin's scope: the head of their organization and its branches.
      sql<string[] | null>`(select array_agg(b.id::text order by b.parent_id is not null, b.id)
          from organizations o
          join organizations b on b.id = coalesce(o.parent_id, o.id) or b.parent_id = coalesce(o.parent_id, o.id)
          where o.id = u.organization_id and u.role = 'org_admin')`.as('group_ids'),
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
  const { id, email, name, role, organization_id, group_ids } = row;
  const branch_ids = group_ids ?? (organization_id ? [organization_id] : []);
  return {
    tokenHash,
    user: {
      id,
      email,
      name,
      role,
      organization_id,
      home_organization_id: organization_id,
      branch_ids,
    },
    expiresAt,
  };
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
