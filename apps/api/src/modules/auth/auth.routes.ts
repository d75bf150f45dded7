import {
  changePasswordRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  meResponseSchema,
  okResponseSchema,
} from '@qless/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { noteActor } from '../../core/access/audit-actor.js';
import { authOf, SESSION_COOKIE } from '../../core/access/auth-guard.js';
import { checkPassword, hashPassword } from '../../core/access/passwords.js';
import { ROLES_ANY } from '../../core/access/roles.js';
import { setSessionCookie } from '../../core/access/session-cookie.js';
import {
  createSession,
  revokeSession,
  revokeUserSessions,
  type SessionUser,
} from '../../core/access/sessions.js';
import { spendOtherLinks } from '../../core/access/user-tokens.repository.js';
import {
  findUserByEmail,
  findUserById,
  normalizeEmail,
  setPasswordHash,
} from '../../core/access/users.repository.js';
import { byName } from '../../core/organizations.repository.js';
import { AppError, errorResponses } from '../../errors.js';
import { limiter } from '../../limits/limiter.js';

const invalidCredentials = () =>
  new AppError(401, 'INVALID_CREDENTIALS', 'Wrong e-mail or password.');

function toUser(u: Pick<SessionUser, 'id' | 'email' | 'name' | 'role' | 'organization_id'>) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    organization_id: u.organization_id,
  };
}

export function authRoutes({ db, clock, config, guard }: AppDeps): FastifyPluginAsyncZod {
  const limits = limiter(db, clock, config);
  // Each attempt counted before its password is checked: per client address (whatever the
  // accounts), per account from that address, and per account from everywhere. Failures
  // from one place lock that place out of the account, not the account's owner elsewhere;
  // the account's ceiling, once spent, still lets a first try from a place that has not
  // failed reach the password check (decision 018), so nobody can lock an admin or the
  // operator out for everyone by typing wrong passwords.
  const reserveSignIn = (reply: FastifyReply, email: string, ip: string) =>
    limits.reserve(reply, [
      { limit: 'sign-ins', of: ip },
      { limit: 'sign-ins-per-account-address', of: email, from: ip },
      {
        limit: 'sign-ins-per-account',
        of: email,
        passesFirstTryOf: 'sign-ins-per-account-address',
      },
    ]);
  const setCookie = (reply: FastifyReply, token: string) => setSessionCookie(reply, token, config);

  return async (app) => {
    app.post(
      '/auth/login',
      {
        config: { touchesCatalog: false, audit: true },
        schema: {
          body: loginRequestSchema,
          response: { 200: loginResponseSchema, ...errorResponses(400, 401, 413, 415, 429) },
        },
      },
      async (req, reply) => {
        const email = normalizeEmail(req.body.email);
        const attempt = await reserveSignIn(reply, email, req.ip);
        const user = await findUserByEmail(db, email);
        // The audit log keeps the account tried, never the text typed (decision 032).
        if (user) noteActor(req, user);
        // The same work and the same answer whether the account exists or not.
        const usable = user?.active === true ? user.password_hash : null;
        const ok = await checkPassword(usable ?? null, req.body.password);
        if (!user || !ok) throw invalidCredentials();
        await attempt.succeeded();
        const session = await createSession(
          db,
          config.auth,
          user.id,
          clock.now(),
          req.headers['user-agent'] ?? null,
        );
        setCookie(reply, session.token);
        return {
          token: session.token,
          expires_at: session.expiresAt.toISOString(),
          user: toUser(user),
        };
      },
    );

    app.post(
      '/auth/logout',
      {
        config: { touchesCatalog: false },
        onRequest: guard.require(ROLES_ANY),
        schema: { response: { 200: okResponseSchema, ...errorResponses(401, 403) } },
      },
      async (req, reply) => {
        await revokeSession(db, authOf(req).tokenHash, clock.now());
        reply.clearCookie(SESSION_COOKIE, { path: '/api' });
        return { ok: true as const };
      },
    );

    app.get(
      '/auth/me',
      {
        onRequest: guard.require(ROLES_ANY),
        schema: { response: { 200: meResponseSchema, ...errorResponses(401, 403) } },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const auth = authOf(req);
        const branches =
          auth.user.branch_ids.length === 0
            ? []
            : await db
                .selectFrom('organizations')
                .select(['id', 'name', 'image_url', 'branch_name', 'city', 'parent_id'])
                .where('id', 'in', [...auth.user.branch_ids])
                .execute();
        const organization = branches.find((b) => b.id === auth.user.organization_id);
        return {
          // The account's own branch; `organization` is the one this request acts on.
          user: toUser({ ...auth.user, organization_id: auth.user.home_organization_id }),
          organization: organization
            ? {
                id: organization.id,
                name: organization.name,
                image_url: organization.image_url,
                branch_name: organization.branch_name,
              }
            : null,
          // The head first, then the others by branch name.
          branches: branches
            .sort(
              (a, b) =>
                Number(a.parent_id !== null) - Number(b.parent_id !== null) ||
                byName(a.branch_name ?? a.city, b.branch_name ?? b.city),
            )
            .map(({ id, name, branch_name, city }) => ({ id, name, branch_name, city })),
          expires_at: auth.expiresAt.toISOString(),
        };
      },
    );

    app.post(
      '/auth/password',
      {
        config: { touchesCatalog: false },
        onRequest: guard.require(ROLES_ANY),
        schema: {
          body: changePasswordRequestSchema,
          response: { 200: okResponseSchema, ...errorResponses(400, 401, 403, 413, 415, 429) },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        // Counted like sign-ins: a stolen session must not become a password oracle.
        const attempt = await reserveSignIn(reply, auth.user.email, req.ip);
        const user = await findUserById(db, auth.user.id);
        if (!user || !(await checkPassword(user.password_hash, req.body.current_password))) {
          throw new AppError(400, 'INVALID_CREDENTIALS', 'Your current password is not right.');
        }
        await attempt.succeeded();
        const now = clock.now();
        const hash = await hashPassword(req.body.new_password);
        await db.transaction().execute(async (trx) => {
          await setPasswordHash(trx, user.id, hash, now);
          await revokeUserSessions(trx, user.id, now, auth.tokenHash);
          // A reset link mailed before the change must not undo it.
          await spendOtherLinks(trx, user.id, 'reset', now);
        });
        return { ok: true as const };
      },
    );
  };
}
