import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.js';
import { SESSION_COOKIE } from './auth-guard.js';

/**
 * Sets the session cookie (sign-in, an accepted invitation). The server decides when a session
 * ends; the cookie lives at most as long, counted by the browser from when it got it
 * (Max-Age, no Expires date): a phone whose clock is days off keeps a fresh session, and so
 * does a test browser beside a server whose clock is pinned to another week.
 */
export function setSessionCookie(
  reply: FastifyReply,
  token: string,
  config: Pick<Config, 'publicOrigin' | 'auth'>,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: config.publicOrigin.startsWith('https:'),
    path: '/api',
    maxAge: config.auth.sessionAbsoluteHours * 3_600,
  });
  reply.header('cache-control', 'no-store');
}
