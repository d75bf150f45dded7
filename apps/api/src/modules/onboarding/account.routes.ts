import {
  acceptedResponseSchema,
  acceptInvitationRequestSchema,
  invitationInfoResponseSchema,
  invitationParamsSchema,
  loginResponseSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  RESET_LINK_VALID_HOURS,
} from '@qless/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { noteActor } from '../../core/access/audit-actor.js';
import { hashPassword } from '../../core/access/passwords.js';
import { setSessionCookie } from '../../core/access/session-cookie.js';
import { createSession, revokeUserSessions } from '../../core/access/sessions.js';
import {
  consumeLinkToken,
  issueLinkToken,
  linkError,
  linkProblem,
  spendOtherLinks,
} from '../../core/access/user-tokens.repository.js';
import {
  findUserByEmail,
  findUserById,
  setPasswordHash,
} from '../../core/access/users.repository.js';
import { placeLabel } from '../../core/organizations.repository.js';
import { errorResponses } from '../../errors.js';
import { limiter } from '../../limits/limiter.js';
import { queueMail } from '../outbox/outbox.module.js';
import { passwordResetMail, resetLink } from './account-mail.js';

/**
 * The public side of accounts: asking for a reset link, using it, and reading and accepting
 * an invitation. Link tokens are never logged (the invitation path is redacted in request
 * logs) and never stored (their hash is).
 */
export function accountRoutes({ db, clock, config }: AppDeps): FastifyPluginAsyncZod {
  /** Link tokens are 256-bit: this only keeps one client from hammering the table. */
  const limits = limiter(db, clock, config);
  const limitChecks = (req: FastifyRequest, reply: FastifyReply) =>
    limits.enforce(reply, [{ limit: 'link-checks', of: req.ip }]);

  return async (app) => {
    app.post(
      '/auth/password-reset',
      {
        config: { touchesCatalog: false, audit: true },
        schema: {
          body: passwordResetRequestSchema,
          response: { 202: acceptedResponseSchema, ...errorResponses(400, 413, 415, 429) },
        },
      },
      async (req, reply) => {
        const email = req.body.email.toLowerCase();
        // Counted per address asked for whether or not it has an account, so a 429 says
        // nothing about which e-mails exist.
        await limits.enforce(reply, [
          { limit: 'password-resets', of: req.ip },
          { limit: 'password-resets-per-account', of: email },
        ]);
        const now = clock.now();
        const user = await findUserByEmail(db, email);
        if (user) noteActor(req, user);
        if (user?.active && user.password_hash) {
          await db.transaction().execute(async (trx) => {
            const token = await issueLinkToken(trx, user.id, 'reset', now, RESET_LINK_VALID_HOURS);
            await queueMail(
              trx,
              passwordResetMail({ to: user.email, link: resetLink(config.publicOrigin, token) }),
              now,
            );
          });
        }
        return reply.status(202).send({ ok: true as const });
      },
    );

    app.post(
      '/auth/password-reset/confirm',
      {
        config: { touchesCatalog: false, audit: true },
        schema: {
          body: passwordResetConfirmSchema,
          response: { 200: acceptedResponseSchema, ...errorResponses(400, 413, 415, 429) },
        },
      },
      async (req, reply) => {
        await limitChecks(req, reply);
        const now = clock.now();
        const { problem, userId } = await linkProblem(db, req.body.token, 'reset', now);
        if (problem || !userId) throw linkError(problem ?? 'INVALID_TOKEN');
        const user = await findUserById(db, userId);
        if (user) noteActor(req, user);
        if (!user?.active) throw linkError('INVALID_TOKEN');
        // Hashed before the transaction: argon2id takes ~90 ms and the transaction stays short.
        const hash = await hashPassword(req.body.password);
        await db.transaction().execute(async (trx) => {
          const id = await consumeLinkToken(trx, req.body.token, 'reset', now);
          await setPasswordHash(trx, id, hash, now);
          await spendOtherLinks(trx, id, 'reset', now);
          // Whoever had the old password (or a stolen session) is signed out everywhere.
          await revokeUserSessions(trx, id, now);
        });
        reply.header('cache-control', 'no-store');
        return { ok: true as const };
      },
    );

    app.get(
      '/auth/invitations/:token',
      {
        schema: {
          params: invitationParamsSchema,
          response: { 200: invitationInfoResponseSchema, ...errorResponses(400, 429) },
        },
      },
      async (req, reply) => {
        await limitChecks(req, reply);
        reply.header('cache-control', 'no-store');
        const { problem, userId } = await linkProblem(db, req.params.token, 'invite', clock.now());
        const user = userId ? await findUserById(db, userId) : undefined;
        if (problem || !user) {
          return {
            valid: false,
            reason: problem ?? 'INVALID_TOKEN',
            email: null,
            organization_name: null,
          };
        }
        if (!user.active || !user.organization_id) {
          return {
            valid: false,
            reason: 'INVALID_TOKEN' as const,
            email: null,
            organization_name: null,
          };
        }
        const org = await db
          .selectFrom('organizations')
          .select(['name', 'branch_name'])
          .where('id', '=', user.organization_id)
          .executeTakeFirst();
        return {
          valid: true,
          reason: null,
          email: user.email,
          organization_name: org ? placeLabel(org.name, org.branch_name) : null,
        };
      },
    );

    app.post(
      '/auth/invitations/accept',
      {
        config: { touchesCatalog: false, audit: true },
        schema: {
          body: acceptInvitationRequestSchema,
          response: { 200: loginResponseSchema, ...errorResponses(400, 413, 415, 429) },
        },
      },
      async (req, reply) => {
        await limitChecks(req, reply);
        const now = clock.now();
        const { problem, userId } = await linkProblem(db, req.body.token, 'invite', now);
        if (problem || !userId) throw linkError(problem ?? 'INVALID_TOKEN');
        const user = await findUserById(db, userId);
        if (user) noteActor(req, user);
        if (!user?.active) throw linkError('INVALID_TOKEN');
        const hash = await hashPassword(req.body.password);
        const name = req.body.name?.trim() || user.name;
        await db.transaction().execute(async (trx) => {
          const id = await consumeLinkToken(trx, req.body.token, 'invite', now);
          await setPasswordHash(trx, id, hash, now);
          await trx
            .updateTable('users')
            .set({ name, updated_at: now })
            .where('id', '=', id)
            .execute();
          await spendOtherLinks(trx, id, 'invite', now);
        });
        const session = await createSession(
          db,
          config.auth,
          user.id,
          now,
          req.headers['user-agent'] ?? null,
        );
        setSessionCookie(reply, session.token, config);
        return {
          token: session.token,
          expires_at: session.expiresAt.toISOString(),
          user: {
            id: user.id,
            email: user.email,
            name,
            role: user.role,
            organization_id: user.organization_id,
          },
        };
      },
    );
  };
}
