import {
  idParamsSchema,
  inviteStaffRequestSchema,
  organizationScopeQuerySchema,
  type StaffMember,
  staffInvitationResponseSchema,
  staffListResponseSchema,
  staffMemberResponseSchema,
  updateStaffRequestSchema,
} from '@qless/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { type AuthContext, authOf } from '../../core/access/auth-guard.js';
import {
  assertMayManage,
  canActOn,
  ROLES_ADMIN,
  targetOrganization,
} from '../../core/access/roles.js';
import { revokeUserSessions } from '../../core/access/sessions.js';
import { findUserById, normalizeEmail } from '../../core/access/users.repository.js';
import { placeLabel } from '../../core/organizations.repository.js';
import type { Db, UserRow } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError, errorResponses } from '../../errors.js';
import { limiter } from '../../limits/limiter.js';
import { emailTaken, invitationChannels, inviteAccount, sendInvitation } from './invitations.js';

function toMember(u: UserRow): StaffMember {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role === 'operator' ? 'staff' : u.role,
    active: u.active,
    invitation_pending: u.password_hash === null,
    created_at: new Date(u.created_at).toISOString(),
  };
}

const userNotFound = () =>
  new AppError(404, 'USER_NOT_FOUND', 'No such account in this organization.');

async function organizationName(db: Db, id: string): Promise<string> {
  const org = await db
    .selectFrom('organizations')
    .select(['name', 'branch_name'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!org) throw new AppError(404, 'ORGANIZATION_NOT_FOUND', 'No such organization.');
  // A branch's people are invited to that branch: "Afriland First Bank (Akwa)".
  return placeLabel(org.name, org.branch_name);
}

/**
 * An account of an organization the caller may act on. Another organization's account is
 * a 404, not a 403: its id says nothing about whether it exists.
 */
async function memberFor(db: Db, auth: AuthContext, id: string): Promise<UserRow> {
  const user = await findUserById(db, id);
  if (!user?.organization_id || !canActOn(auth, user.organization_id)) throw userNotFound();
  return user;
}

/** Organization admins manage their accounts: invite, disable, re-send an invitation. */
export function staffRoutes({ db, clock, config, guard }: AppDeps): FastifyPluginAsyncZod {
  const onRequest = guard.require(ROLES_ADMIN);
  const limits = limiter(db, clock, config);
  /**
   * Counted before the mail is queued, invite and re-send alike: the address first, so an
   * admin who hammers one address does not spend the organization's budget for everyone.
   */
  const countInvitation = async (reply: FastifyReply, organizationId: string, email: string) => {
    // One budget per organization, whatever its number of branches (decision 024).
    const row = await db
      .selectFrom('organizations')
      .select(['id', 'parent_id'])
      .where('id', '=', organizationId)
      .executeTakeFirst();
    const organization = row?.parent_id ?? organizationId;
    await limits.enforce(reply, [
      { limit: 'invitations-per-address', of: normalizeEmail(email) },
      { limit: 'invitations-per-organization', of: organization },
      { limit: 'invitations-per-organization-day', of: organization },
    ]);
  };

  return async (app) => {
    app.get(
      '/organization/staff',
      {
        onRequest,
        schema: {
          querystring: organizationScopeQuerySchema,
          response: { 200: staffListResponseSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const orgId = targetOrganization(authOf(req), req.query.organization_id);
        const users = await db
          .selectFrom('users')
          .selectAll()
          .where('organization_id', '=', orgId)
          .orderBy('created_at')
          .orderBy('email')
          .execute();
        return { staff: users.map(toMember) };
      },
    );

    app.post(
      '/organization/staff',
      {
        config: { touchesCatalog: false },
        onRequest,
        schema: {
          body: inviteStaffRequestSchema,
          response: {
            201: staffInvitationResponseSchema,
            ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429),
          },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const orgId = targetOrganization(auth, req.body.organization_id);
        assertMayManage(auth, req.body.role);
        await countInvitation(reply, orgId, req.body.email);
        const now = clock.now();
        let made: Awaited<ReturnType<typeof inviteAccount>>;
        try {
          made = await db.transaction().execute(async (trx) =>
            inviteAccount(trx, {
              email: req.body.email,
              name: req.body.name,
              role: req.body.role,
              organizationId: orgId,
              organizationName: await organizationName(trx, orgId),
              publicOrigin: config.publicOrigin,
              now,
              ...invitationChannels(config, req.body.phone),
            }),
          );
        } catch (err) {
          if (isUniqueViolation(err)) throw emailTaken();
          throw err;
        }
        // The link rides in the answer only without SMTP: never cache or store it.
        reply.header('cache-control', 'no-store');
        return reply.status(201).send({ member: toMember(made.user), invitation: made.invitation });
      },
    );

    app.patch(
      '/organization/staff/:id',
      {
        config: { touchesCatalog: false },
        onRequest,
        schema: {
          params: idParamsSchema,
          body: updateStaffRequestSchema,
          response: {
            200: staffMemberResponseSchema,
            ...errorResponses(400, 401, 403, 404, 409, 413, 415),
          },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const member = await memberFor(db, auth, req.params.id);
        if (member.id === auth.user.id && !req.body.active) {
          throw new AppError(409, 'CANNOT_DISABLE_SELF', 'You cannot disable your own account.');
        }
        assertMayManage(auth, member.role);
        const now = clock.now();
        const updated = await db.transaction().execute(async (trx) => {
          const row = await trx
            .updateTable('users')
            .set({ active: req.body.active, updated_at: now })
            .where('id', '=', member.id)
            .returningAll()
            .executeTakeFirstOrThrow();
          // Sessions of a disabled account already fail (the guard checks `active`); revoking
          // them too keeps them dead if the account is enabled again.
          if (!req.body.active) await revokeUserSessions(trx, member.id, now);
          return row;
        });
        return { member: toMember(updated) };
      },
    );

    app.post(
      '/organization/staff/:id/resend',
      {
        config: { touchesCatalog: false },
        onRequest,
        schema: {
          params: idParamsSchema,
          response: {
            200: staffInvitationResponseSchema,
            ...errorResponses(400, 401, 403, 404, 409, 429),
          },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const member = await memberFor(db, auth, req.params.id);
        assertMayManage(auth, member.role);
        if (member.password_hash !== null) {
          throw new AppError(
            409,
            'INVITATION_ACCEPTED',
            'This person has already chosen a password; they can reset it from the login page.',
          );
        }
        if (!member.active) {
          throw new AppError(
            409,
            'ACCOUNT_DISABLED',
            'Enable this account before inviting it again.',
          );
        }
        const orgId = member.organization_id as string;
        await countInvitation(reply, orgId, member.email);
        const now = clock.now();
        const invitation = await db.transaction().execute(async (trx) =>
          sendInvitation(trx, {
            userId: member.id,
            email: member.email,
            role: member.role === 'operator' ? 'staff' : member.role,
            organizationName: await organizationName(trx, orgId),
            publicOrigin: config.publicOrigin,
            now,
            ...invitationChannels(config, undefined),
          }),
        );
        reply.header('cache-control', 'no-store');
        return { member: toMember(member), invitation };
      },
    );
  };
}
