import type { StaffRole } from '@qless/contract';
import {
  INVITATION_VALID_HOURS,
  type InvitationDelivery,
  normalizeCameroonMobile,
} from '@qless/contract';
import { issueLinkToken } from '../../core/access/user-tokens.repository.js';
import { findUserByEmail, insertUser, normalizeEmail } from '../../core/access/users.repository.js';
import type { Db, UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { queueMail, queueSms } from '../outbox/outbox.module.js';
import { invitationLink, invitationMail, invitationSms } from './account-mail.js';

export const emailTaken = () =>
  new AppError(409, 'EMAIL_TAKEN', 'An account with this e-mail already exists.');

/** How the link can leave this server: by e-mail only with SMTP; by SMS to a number given. */
export interface InvitationChannels {
  mailConfigured: boolean;
  /** A normalized mobile number to text the link to, or null. */
  smsTo: string | null;
}

/**
 * Issues (or re-issues) the invitation link of an account and queues its mail (and its SMS
 * when a number was given), in `db`'s transaction. Says how the link will reach its person:
 * without SMTP the mail only waits in the outbox, so the link is handed to the inviter.
 */
export async function sendInvitation(
  db: Db,
  input: {
    userId: string;
    email: string;
    role: StaffRole;
    organizationName: string;
    publicOrigin: string;
    now: Date;
  } & InvitationChannels,
): Promise<InvitationDelivery> {
  const token = await issueLinkToken(db, input.userId, 'invite', input.now, INVITATION_VALID_HOURS);
  const link = invitationLink(input.publicOrigin, token);
  // Queued even without SMTP: operators still read it in the outbox.
  await queueMail(
    db,
    invitationMail({
      to: input.email,
      organizationName: input.organizationName,
      role: input.role,
      link,
    }),
    input.now,
  );
  if (input.smsTo) {
    const text = invitationSms({ organizationName: input.organizationName, link });
    const subject = `Qless invitation (SMS) – ${input.organizationName}`;
    await queueSms(db, { to: input.smsTo, subject, text, kind: 'invitation' }, input.now);
  }
  return {
    email: input.mailConfigured ? 'queued' : 'not_configured',
    link: input.mailConfigured ? null : link,
    sms: input.smsTo ? 'queued' : null,
    valid_hours: INVITATION_VALID_HOURS,
  };
}

/** The channels of this deployment for an invitation to `phone` (blank or absent: no SMS). */
export function invitationChannels(
  config: { mail: { smtpUrl: string | null; from: string | null } },
  phone: string | undefined,
): InvitationChannels {
  return {
    mailConfigured: config.mail.smtpUrl !== null && config.mail.from !== null,
    smsTo: phone ? normalizeCameroonMobile(phone) : null,
  };
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
    role: StaffRole;
    organizationId: string;
    organizationName: string;
    publicOrigin: string;
    now: Date;
  } & InvitationChannels,
): Promise<{ user: UserRow; invitation: InvitationDelivery }> {
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
  const invitation = await sendInvitation(db, {
    userId: user.id,
    email,
    role: input.role,
    organizationName: input.organizationName,
    publicOrigin: input.publicOrigin,
    now: input.now,
    mailConfigured: input.mailConfigured,
    smsTo: input.smsTo,
  });
  return { user, invitation };
}
