import type { StaffRole } from '@qless/contract';
import { INVITATION_VALID_HOURS, RESET_LINK_VALID_HOURS } from '@qless/contract';
import type { NewMail } from '../outbox/outbox.module.js';

/** The web app's pages for these links (hash routes, so the token never reaches a server log). */
export const invitationLink = (origin: string, token: string) => `${origin}/#/invite/${token}`;
export const resetLink = (origin: string, token: string) => `${origin}/#/reset-password/${token}`;

/**
 * Mail goes out in English and French together: we do not know the reader's language, and
 * both are first-class in Cameroon.
 */
export function invitationMail(input: {
  to: string;
  organizationName: string;
  role: StaffRole;
  link: string;
}): NewMail {
  const { organizationName: org, link } = input;
  const asAdmin = input.role !== 'staff';
  const text = [
    asAdmin
      ? `You are invited to manage ${org} on Qless.`
      : `You are invited to join ${org} on Qless as counter staff.`,
    '',
    'Choose your password here to activate your account:',
    link,
    '',
    `This link works once and for ${INVITATION_VALID_HOURS} hours. If you did not expect it, ignore this e-mail.`,
    '',
    '---',
    '',
    asAdmin
      ? `Vous êtes invité(e) à gérer ${org} sur Qless.`
      : `Vous êtes invité(e) à rejoindre ${org} sur Qless comme agent d'accueil.`,
    '',
    'Choisissez votre mot de passe ici pour activer votre compte :',
    link,
    '',
    `Ce lien ne sert qu'une fois et pendant ${INVITATION_VALID_HOURS} heures. Si vous ne l'attendiez pas, ignorez cet e-mail.`,
    '',
  ].join('\n');
  return {
    to: input.to,
    subject: `Your Qless invitation – ${org} / Votre invitation Qless`,
    text,
    kind: 'invitation',
  };
}

/**
 * The invitation by SMS (when the inviter gave a number): short, in both languages like the
 * mail, the link last so that phones make it tappable.
 */
export function invitationSms(input: { organizationName: string; link: string }): string {
  return `Qless – ${input.organizationName}: activate your account / activez votre compte (${INVITATION_VALID_HOURS} h): ${input.link}`;
}

export function passwordResetMail(input: { to: string; link: string }): NewMail {
  const text = [
    'Someone (hopefully you) asked to reset the password of your Qless account.',
    '',
    'Choose a new password here:',
    input.link,
    '',
    `This link works once and for ${RESET_LINK_VALID_HOURS} hour. If you did not ask, ignore this e-mail: your password stays as it is.`,
    '',
    '---',
    '',
    'Quelqu’un (vous, sans doute) a demandé à réinitialiser le mot de passe de votre compte Qless.',
    '',
    'Choisissez un nouveau mot de passe ici :',
    input.link,
    '',
    `Ce lien ne sert qu'une fois et pendant ${RESET_LINK_VALID_HOURS} heure. Si vous n'avez rien demandé, ignorez cet e-mail : votre mot de passe ne change pas.`,
    '',
  ].join('\n');
  return {
    to: input.to,
    subject: 'Reset your Qless password / Réinitialiser votre mot de passe',
    text,
    kind: 'password_reset',
  };
}
