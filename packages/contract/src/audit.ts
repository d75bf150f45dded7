import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';
import { isoDateSchema } from './time-schemas.js';

/**
 * The audit log (decision 032): what staff, admins and operators did, who,
 * when and from where. Operators read every entry (GET /api/v1/platform/audit); an
 * organization admin their branches' and a branch manager their branch's
 * (GET /api/v1/organization/audit). Newest first, a page at a time by an opaque cursor.
 */

export const AUDIT_PAGE_SIZE_MAX = 100;

/** No control characters (PostgreSQL refuses NUL in text). */
const filterText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters refused.
    .regex(/^[^\u0000-\u001f\u007f]*$/);

const auditFilterFields = {
  /** An account's e-mail (or part of it) or id. */
  actor: filterText(200).optional(),
  organization_id: idSchema.optional(),
  /** An action key; ending in `*`, every key that starts so ("PATCH /organization/*"). */
  action: filterText(120).optional(),
  /** Days in the zone of the reader's screen (the organization's; Douala in the console). */
  from: isoDateSchema.optional(),
  to: isoDateSchema.optional(),
  cursor: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_SIZE_MAX).default(50),
};

export const auditQuerySchema = withFieldCodes(z.object(auditFilterFields), {
  actor: 'INVALID_QUERY',
  organization_id: 'INVALID_ID',
  action: 'INVALID_QUERY',
  from: 'INVALID_DATE',
  to: 'INVALID_DATE',
  cursor: 'INVALID_PAGE',
  limit: 'INVALID_PAGE',
});
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const AUDIT_ROLES = ['operator', 'org_admin', 'branch_manager', 'staff'] as const;

export const auditEntrySchema = z.object({
  id: idSchema,
  at: z.string(),
  /** The account as it was then; all null for a sign-in to an account that does not exist. */
  actor_user_id: idSchema.nullable(),
  actor_role: z.enum(AUDIT_ROLES).nullable(),
  actor_email: z.string().nullable(),
  organization_id: idSchema.nullable(),
  /** The branch's name as it is now ("Bank (Akwa)"); null when none or since deleted. */
  organization_name: z.string().nullable(),
  /** A stable key: "METHOD /route/:param" or a route's own name; screens translate it. */
  action: z.string(),
  /** The ids the route named (its path parameters). */
  target: z.record(z.string(), z.string()),
  /** The answer's HTTP status: 2xx done, 4xx refused. */
  outcome: z.number().int(),
  client_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  request_id: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditResponseSchema = z.object({
  entries: z.array(auditEntrySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type AuditResponse = z.infer<typeof auditResponseSchema>;
