import { z } from 'zod';
import { emailSchema, passwordSchema } from './auth.js';
import { idSchema } from './catalog.js';
import { CONTACT_REQUEST_STATUSES } from './constants.js';
import { withFieldCodes } from './errors.js';
import { PROFILE_MISSING_ITEMS } from './organization-admin.js';
import { normalizeCameroonMobile } from './phone.js';

/**
 * Onboarding: password reset and invitation links, the operator console
 * (contact requests, organizations, mail outbox, payments to review) and staff invitations.
 */

/** A single-use link's token: 32 random bytes in base64url (only its hash is stored). */
export const linkTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Not a valid link');

/** Why a link no longer works; the client shows each in words. */
export const LINK_PROBLEMS = ['INVALID_TOKEN', 'TOKEN_EXPIRED', 'TOKEN_USED'] as const;
export type LinkProblem = (typeof LINK_PROBLEMS)[number];

// --- Password reset -------------------------------------------------------------------

export const passwordResetRequestSchema = withFieldCodes(z.object({ email: emailSchema }), {
  email: 'INVALID_EMAIL',
});
export type PasswordResetRequest = z.input<typeof passwordResetRequestSchema>;

/** The same answer whether or not the account exists. */
export const acceptedResponseSchema = z.object({ ok: z.literal(true) });

export const passwordResetConfirmSchema = withFieldCodes(
  z.object({ token: linkTokenSchema, password: passwordSchema }),
  { token: 'INVALID_TOKEN', password: 'WEAK_PASSWORD' },
);
export type PasswordResetConfirm = z.input<typeof passwordResetConfirmSchema>;

// --- Invitations ----------------------------------------------------------------------

export const invitationParamsSchema = withFieldCodes(z.object({ token: linkTokenSchema }), {
  token: 'INVALID_TOKEN',
});

/** What an invitation link shows before a password is chosen, and nothing more. */
export const invitationInfoResponseSchema = z.object({
  valid: z.boolean(),
  /** Why it is not valid (null when it is). */
  reason: z.enum(LINK_PROBLEMS).nullable(),
  /** Set only while the invitation is valid. */
  email: z.string().nullable(),
  organization_name: z.string().nullable(),
});
export type InvitationInfo = z.infer<typeof invitationInfoResponseSchema>;

export const acceptInvitationRequestSchema = withFieldCodes(
  z.object({
    token: linkTokenSchema,
    password: passwordSchema,
    name: z.string().trim().max(100).optional(),
  }),
  { token: 'INVALID_TOKEN', password: 'WEAK_PASSWORD', name: 'INVALID_NAME' },
);
export type AcceptInvitationRequest = z.input<typeof acceptInvitationRequestSchema>;

// --- Operator console ----------------------------------------------------------------

const pageFields = {
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
};
const pageFieldCodes = { page: 'VALIDATION_FAILED', page_size: 'VALIDATION_FAILED' } as const;

export const contactRequestsQuerySchema = withFieldCodes(
  z.object({ ...pageFields, status: z.enum(CONTACT_REQUEST_STATUSES).optional() }),
  { ...pageFieldCodes, status: 'VALIDATION_FAILED' },
);

export const contactRequestItemSchema = z.object({
  id: idSchema,
  user_name: z.string(),
  user_email: z.string(),
  message: z.string(),
  /** Who to call back and on which number (blank on requests made before they were asked). */
  contact_name: z.string(),
  phone: z.string(),
  status: z.enum(CONTACT_REQUEST_STATUSES),
  created_at: z.string(),
  handled_at: z.string().nullable(),
  /** The organization created from it (approved requests). */
  organization_id: idSchema.nullable(),
});
export type ContactRequestItem = z.infer<typeof contactRequestItemSchema>;

export const contactRequestsResponseSchema = z.object({
  contact_requests: z.array(contactRequestItemSchema),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
});
export type ContactRequestsResponse = z.infer<typeof contactRequestsResponseSchema>;

export const idParamsSchema = withFieldCodes(z.object({ id: idSchema }), { id: 'INVALID_ID' });

/** A mobile number to text an invitation link to: optional, Cameroonian, any usual spelling. */
const invitationPhoneSchema = z
  .string()
  .trim()
  .max(30)
  .refine((v) => v === '' || normalizeCameroonMobile(v) !== null, 'A mobile number: 6xx xxx xxx')
  .optional();

/** Every field is optional: the request's organization name and e-mail are the defaults. */
export const approveContactRequestSchema = withFieldCodes(
  z.object({
    name: z.string().trim().min(1, 'Enter the organization name').max(200).optional(),
    admin_email: emailSchema.optional(),
    admin_name: z.string().trim().max(100).optional(),
    city: z.string().trim().max(100).optional(),
    category: z.string().trim().max(100).optional(),
    time_zone: z.string().trim().max(64).optional(),
    /** The first admin's mobile: the invitation link goes there by SMS too. */
    admin_phone: invitationPhoneSchema,
  }),
  {
    name: 'INVALID_NAME',
    admin_phone: 'INVALID_PHONE',
    admin_email: 'INVALID_EMAIL',
    admin_name: 'INVALID_NAME',
    city: 'INVALID_LOCATION',
    category: 'VALIDATION_FAILED',
    time_zone: 'INVALID_TIME_ZONE',
  },
);
export type ApproveContactRequest = z.input<typeof approveContactRequestSchema>;

/**
 * How an invitation reaches its person. Nothing here says "sent": the
 * answer comes before any delivery. `email`: `queued` when the server has SMTP (the outbox
 * worker sends it), `not_configured` when it has none (the mail waits in the outbox and no
 * one receives it). `link`: the invitation link itself, given only when no e-mail carries
 * it, for the inviter to copy or share. `sms`: `queued` when a phone number was given (an
 * SMS with the link, through the SMS provider), else null.
 */
export const invitationDeliverySchema = z.object({
  email: z.enum(['queued', 'not_configured']),
  link: z.string().nullable(),
  sms: z.enum(['queued']).nullable(),
  /** How long the link works. */
  valid_hours: z.number().int(),
});
export type InvitationDelivery = z.infer<typeof invitationDeliverySchema>;

export const approveContactResponseSchema = z.object({
  contact_request: contactRequestItemSchema,
  organization: z.object({ organization_id: idSchema, name: z.string() }),
  admin: z.object({ id: idSchema, email: z.string() }),
  invitation: invitationDeliverySchema,
});
export type ApproveContactResponse = z.infer<typeof approveContactResponseSchema>;

export const contactRequestResponseSchema = z.object({
  contact_request: contactRequestItemSchema,
});

export const platformOrganizationSchema = z.object({
  organization_id: idSchema,
  name: z.string(),
  /** Branches (decision 024): the branch's name, and its head (null for a head). */
  branch_name: z.string().nullable(),
  parent_id: idSchema.nullable(),
  email: z.string(),
  city: z.string(),
  category: z.string(),
  location: z.string(),
  active: z.boolean(),
  verified: z.boolean(),
  verified_at: z.string().nullable(),
  /** Required profile fields still empty, and `open_days` until the days are confirmed. */
  missing_fields: z.array(z.enum(PROFILE_MISSING_ITEMS)),
  /** Verified, active and complete: customers can find it. */
  listed: z.boolean(),
  created_at: z.string(),
  /**
   * What the operator checks before verifying it (operators once verified blind): its logo,
   * hours, days and services, as its admin set them.
   */
  image_url: z.string().nullable(),
  time_zone: z.string(),
  /** "HH:MM" in its time zone. */
  opens_at: z.string(),
  closes_at: z.string(),
  /** 0 = Sunday, ascending. */
  open_days: z.array(z.number().int().min(0).max(6)),
  services: z.array(
    z.object({
      service_id: idSchema,
      service_name: z.string(),
      service_name_fr: z.string().nullable(),
      service_description: z.string(),
      duration: z.number().int(),
      active: z.boolean(),
    }),
  ),
});
export type PlatformOrganization = z.infer<typeof platformOrganizationSchema>;

export const platformOrganizationsResponseSchema = z.object({
  organizations: z.array(platformOrganizationSchema),
});
export type PlatformOrganizationsResponse = z.infer<typeof platformOrganizationsResponseSchema>;

export const platformOrganizationResponseSchema = z.object({
  organization: platformOrganizationSchema,
});

export const pageQuerySchema = withFieldCodes(z.object(pageFields), pageFieldCodes);

export const OUTBOX_CHANNELS = ['email', 'sms', 'push', 'whatsapp'] as const;
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed', 'skipped'] as const;

/**
 * One message of the outbox as operators see it. Customers' booking messages carry a
 * masked recipient and no text (it holds their ticket's access link and where they go);
 * operators see whether and how each one was delivered.
 */
export const outboxMessageSchema = z.object({
  id: idSchema,
  channel: z.enum(OUTBOX_CHANNELS),
  /** pending (next attempt at next_attempt_at), sent, failed (given up), skipped (no longer true). */
  status: z.enum(OUTBOX_STATUSES),
  /** An e-mail address or phone number; masked for customers ("+237 6•• ••• •56"). */
  to: z.string(),
  /** Null for SMS, and for a customer's message (not shown). */
  subject: z.string().nullable(),
  kind: z.string(),
  /** A customer's message about a booking (confirmation, reminder, …). */
  customer: z.boolean(),
  locale: z.enum(['en', 'fr']).nullable(),
  /** Who took it: smtp, simulator (recorded only, never sent to a phone), africastalking. */
  provider: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  attempts: z.number().int(),
  /** When the next delivery attempt is due (null: sent, given up or skipped). */
  next_attempt_at: z.string().nullable(),
  /** Why the last attempt failed, or why the message was skipped. */
  last_error: z.string().nullable(),
  /** Account mail: operators read invitation links here when no SMTP server is configured. Null for customers' messages. */
  text_body: z.string().nullable(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const outboxResponseSchema = z.object({
  messages: z.array(outboxMessageSchema),
  /** Whether an SMTP server is configured (otherwise mail waits here for operators). */
  smtp_configured: z.boolean(),
  /** The SMS provider: simulator (messages are recorded here, not sent) or a gateway. */
  sms_provider: z.string(),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
});
export type OutboxResponse = z.infer<typeof outboxResponseSchema>;

export const reviewPaymentSchema = z.object({
  id: idSchema,
  reference: z.string(),
  provider: z.string(),
  status: z.string(),
  review_reason: z.string().nullable(),
  amount: z.number(),
  currency: z.string(),
  created_at: z.string(),
});
export type ReviewPayment = z.infer<typeof reviewPaymentSchema>;

export const reviewPaymentsResponseSchema = z.object({
  payments: z.array(reviewPaymentSchema),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
});
export type ReviewPaymentsResponse = z.infer<typeof reviewPaymentsResponseSchema>;

// --- Staff (organization admins) ------------------------------------------------------

export const STAFF_ROLES = ['staff', 'branch_manager', 'org_admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const staffMemberSchema = z.object({
  id: idSchema,
  email: z.string(),
  name: z.string(),
  role: z.enum(STAFF_ROLES),
  active: z.boolean(),
  /** Invited and has not chosen a password yet. */
  invitation_pending: z.boolean(),
  created_at: z.string(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffListResponseSchema = z.object({ staff: z.array(staffMemberSchema) });
export type StaffListResponse = z.infer<typeof staffListResponseSchema>;

export const staffMemberResponseSchema = z.object({ member: staffMemberSchema });
export type StaffMemberResponse = z.infer<typeof staffMemberResponseSchema>;

/** An invitation made or made again: the account, and how the link reaches its person. */
export const staffInvitationResponseSchema = z.object({
  member: staffMemberSchema,
  invitation: invitationDeliverySchema,
});
export type StaffInvitationResponse = z.infer<typeof staffInvitationResponseSchema>;

export const inviteStaffRequestSchema = withFieldCodes(
  z.object({
    email: emailSchema,
    name: z.string().trim().max(100).default(''),
    role: z.enum(STAFF_ROLES).default('staff'),
    /** Operators name the organization; admins may omit it. */
    organization_id: idSchema.optional(),
    /** The person's mobile: the invitation link goes there by SMS too. */
    phone: invitationPhoneSchema,
  }),
  {
    phone: 'INVALID_PHONE',
    email: 'INVALID_EMAIL',
    name: 'INVALID_NAME',
    role: 'VALIDATION_FAILED',
    organization_id: 'INVALID_ID',
  },
);
export type InviteStaffRequest = z.input<typeof inviteStaffRequestSchema>;

export const updateStaffRequestSchema = withFieldCodes(z.object({ active: z.boolean() }), {
  active: 'VALIDATION_FAILED',
});
export type UpdateStaffRequest = z.input<typeof updateStaffRequestSchema>;
