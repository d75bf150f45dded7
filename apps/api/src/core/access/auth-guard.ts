import type { Role } from '@qless/contract';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { AuthConfig } from '../../config.js';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../clock.js';
import { noteActor } from './audit-actor.js';
import { findSession, type SessionUser } from './sessions.js';

export const SESSION_COOKIE = 'qless_session';

export interface AuthContext {
  user: SessionUser;
  tokenHash: string;
  via: 'bearer' | 'cookie';
  expiresAt: Date;
}

/** Our tokens are 32 random bytes in base64url; anything else is refused without a query. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The header by which a page of the organization area says which branch it acts on (each
 * tab its own: decision 024). Absent: the account's own branch. Operators name the
 * organization in each request instead, as before.
 */
export const BRANCH_HEADER = 'x-qless-branch';

const unauthorized = () =>
  new AppError(401, 'UNAUTHORIZED', 'Sign in to continue; your session may have ended.');

export interface AuthGuard {
  /**
   * An onRequest hook (it runs before the body is read, so nobody unauthenticated gets a
   * body parsed or an upload stored) that lets through a live session of one of `roles`.
   */
  require(roles: readonly Role[]): onRequestAsyncHookHandler;
  /** The session of a request, or null (for routes that behave differently when signed in). */
  identify(req: FastifyRequest): Promise<AuthContext | null>;
}

function credentials(req: FastifyRequest): { token: string; via: 'bearer' | 'cookie' } | null {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
    // A malformed Authorization header is a failed sign-in, not a fall-back to the cookie.
    return { token: match?.[1] ?? '', via: 'bearer' };
  }
  const cookie = req.cookies?.[SESSION_COOKIE];
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

export function createAuthGuard(
  db: Kysely<DB>,
  config: AuthConfig,
  clock: Clock,
  allowedOrigins: readonly string[],
): AuthGuard {
  async function identify(req: FastifyRequest): Promise<AuthContext | null> {
    const given = credentials(req);
    if (!given || !TOKEN_PATTERN.test(given.token)) return null;
    const session = await findSession(db, config, given.token, clock.now());
    if (!session) return null;
    const branch = req.headers[BRANCH_HEADER];
    let user = session.user;
    // The audit log names the caller of a request even when it is then refused (decision 032).
    noteActor(req, user);
    if (typeof branch === 'string' && branch !== '' && user.role !== 'operator') {
      const id = branch.toLowerCase();
      if (!UUID.test(id) || !user.branch_ids.includes(id)) {
        throw new AppError(403, 'BRANCH_FORBIDDEN', 'This branch is not one you may act on.');
      }
      user = { ...user, organization_id: id };
      noteActor(req, user);
    }
    return {
      user,
      tokenHash: session.tokenHash,
      via: given.via,
      expiresAt: session.expiresAt,
    };
  }

  function require(roles: readonly Role[]): onRequestAsyncHookHandler {
    return async (req: FastifyRequest, _reply: FastifyReply) => {
      const auth = await identify(req);
      if (!auth) throw unauthorized();
      // A cookie rides along on any request the browser makes, so a cookie-authenticated
      // write must come from one of our own pages (CSRF). Bearer tokens are never ambient.
      if (auth.via === 'cookie' && !SAFE_METHODS.has(req.method)) {
        const origin = req.headers.origin;
        if (!origin || !allowedOrigins.includes(origin)) {
          throw new AppError(
            403,
            'ORIGIN_NOT_ALLOWED',
            'This request must come from the Qless site.',
          );
        }
      }
      if (!roles.includes(auth.user.role)) {
        throw new AppError(403, 'FORBIDDEN', 'Your account may not do this.');
      }
      req.auth = auth;
    };
  }

  return { require, identify };
}

/** The authenticated caller of a guarded route (set by `require`). */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw unauthorized();
  return req.auth;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by an auth guard's `require` hook; null on public routes. */
    auth: AuthContext | null;
  }
}
