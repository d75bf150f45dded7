import { INVITATION_VALID_HOURS } from '@qless/contract';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { findUserByEmail, insertUser, normalizeEmail } from '../auth/users.repository.js';
import { queueMail } from '../outbox/outbox.repository.js';
import { invitationLink, invitationMail } from './account-mail.js';
import { issueLinkToken } from './user-tokens.repository.js';

export const emailTaken = () =>
  new AppError(409, 'EMAIL_TAKEN', 'An account with this e-mail already exists.');

/** A unique violation (two requests racing for one e-mail) is the same 409. */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown }).code === '23505';
}

/** Issues (or re-issues) the invitation link of an account and queues its mail, in `db`'s transaction. */
export async function sendInvitation(
  db: Db,
  input: {
    userId: string;
    email: string;
    role: 'org_admin' | 'staff';
    organizationName: string;
    publicOrigin: string;
    now: Date;
  },
): Promise<void> {
  const token = await issueLinkToken(db, input.userId, 'invite', input.now, INVITATION_VALID_HOURS);
  await queueMail(
    db,
    invitationMail({
      to: input.email,
      organizationName: input.organizationName,
      role: input.role,
      link: invitationLink(input.publicOrigin, token),
    }),
    input.now,
  );
}

/**
 * Creates an account with no password in an organization and invites it. Run it in a
 * transaction: the account, its link and its mail exist together or not at all.
 */
export async function inviteAccount(
  db: Db,
  input: {
    email: string;
    name: string;
    role: 'org_admin' | 'staff';
    organizationId: string;
    organizationName: string;
    publicOrigin: string;
    now: Date;
  },
) {
  const email = normalizeEmail(input.email);
  if (await findUserByEmail(db, email)) throw emailTaken();
  const user = await insertUser(db, {
    email,
    name: input.name,
    role: input.role,
    organizationId: input.organizationId,
    passwordHash: null,
    now: input.now,
  });
  await sendInvitation(db, {
    userId: user.id,
    email,
    role: input.role,
    organizationName: input.organizationName,
    publicOrigin: input.publicOrigin,
    now: input.now,
  });
  return user;
}
