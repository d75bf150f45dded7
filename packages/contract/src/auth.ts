import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';

export const ROLES = ['operator', 'org_admin', 'branch_manager', 'staff'] as const;
export type Role = (typeof ROLES)[number];

/** OWASP ASVS: long passphrases allowed, no composition rules, a floor on length. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

export const emailSchema = z.string().trim().max(254).pipe(z.email('Enter a valid email address'));

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `A password has at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `A password has at most ${PASSWORD_MAX_LENGTH} characters`);

export const loginRequestSchema = withFieldCodes(
  z.object({
    email: emailSchema,
    // Any length is accepted at login (old passwords, typos): only a match signs in.
    password: z.string().min(1, 'Enter your password').max(PASSWORD_MAX_LENGTH),
  }),
  { email: 'INVALID_EMAIL', password: 'INVALID_PASSWORD' },
);
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const userSchema = z.object({
  id: idSchema,
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  /** Null for operators (the platform team), who may act on any organization. */
  organization_id: idSchema.nullable(),
});
export type User = z.infer<typeof userSchema>;

export const loginResponseSchema = z.object({
  /** Bearer token; browsers use the HttpOnly cookie set with it instead. */
  token: z.string(),
  /** When the session ends if unused (it slides while used, up to an absolute limit). */
  expires_at: z.string(),
  user: userSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const meResponseSchema = z.object({
  user: userSchema,
  /** The branch the caller acts on: their own, or the one the request named (null for operators). */
  organization: z
    .object({
      id: idSchema,
      name: z.string(),
      image_url: z.string().nullable(),
      branch_name: z.string().nullable(),
    })
    .nullable(),
  /** Every branch the caller may act on, head first (one for most; none for operators). */
  branches: z.array(
    z.object({
      id: idSchema,
      name: z.string(),
      branch_name: z.string().nullable(),
      city: z.string(),
    }),
  ),
  expires_at: z.string(),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

export const changePasswordRequestSchema = withFieldCodes(
  z.object({
    current_password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
    new_password: passwordSchema,
  }),
  { current_password: 'INVALID_CREDENTIALS', new_password: 'WEAK_PASSWORD' },
);
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });
