import { z } from 'zod';
import { idSchema, organizationSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';

/**
 * Branches (decision 024): an organization (a bank) with several places (its
 * agencies). Each branch has its own address, hours, closures, services, counters and staff;
 * customers see the organization once and pick a branch.
 */

/** A branch as customers pick it: by city, by name, or by distance when the phone shares it. */
export const publicBranchSchema = z.object({
  organization_id: idSchema,
  branch_name: z.string().nullable(),
  city: z.string(),
  location: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type PublicBranch = z.infer<typeof publicBranchSchema>;

/** GET /api/organizations/{id}/branches: the organization (its head) and its listed branches. */
export const publicBranchesResponseSchema = z.object({
  organization: organizationSchema,
  branches: z.array(publicBranchSchema),
});
export type PublicBranchesResponse = z.infer<typeof publicBranchesResponseSchema>;

const coordinate = (min: number, max: number) => z.number().finite().min(min).max(max);

const branchFields = {
  branch_name: z.string().trim().min(1, 'Name the branch').max(80),
  city: z.string().trim().min(1, 'Enter the city').max(100),
  location: z.string().trim().min(1, 'Enter the address').max(200),
  latitude: coordinate(-90, 90).nullable().optional(),
  longitude: coordinate(-180, 180).nullable().optional(),
};
const branchFieldCodes = {
  branch_name: 'INVALID_BRANCH',
  city: 'INVALID_BRANCH',
  location: 'INVALID_BRANCH',
  latitude: 'INVALID_BRANCH',
  longitude: 'INVALID_BRANCH',
} as const;

const bothOrNeither = (v: { latitude?: number | null; longitude?: number | null }) =>
  (v.latitude == null) === (v.longitude == null);

/**
 * POST /api/organization/branches (an organization admin or an operator): a new branch of
 * the organization. Its hours, days, time zone and contact details start as the head's; it
 * is edited afterwards like any branch (switch to it in the area).
 */
export const createBranchRequestSchema = withFieldCodes(
  z
    .object({ ...branchFields, organization_id: idSchema.optional() })
    .refine(bothOrNeither, { message: 'Give both latitude and longitude, or neither' }),
  { ...branchFieldCodes, organization_id: 'INVALID_ID' },
);
export type CreateBranchRequest = z.input<typeof createBranchRequestSchema>;

/** PATCH /api/organization/branch: the acting branch's name and position (its address is the profile's). */
export const updateBranchRequestSchema = withFieldCodes(
  z
    .object({
      branch_name: branchFields.branch_name.optional(),
      latitude: branchFields.latitude,
      longitude: branchFields.longitude,
      organization_id: idSchema.optional(),
    })
    .refine(bothOrNeither, { message: 'Give both latitude and longitude, or neither' }),
  {
    branch_name: 'INVALID_BRANCH',
    latitude: 'INVALID_BRANCH',
    longitude: 'INVALID_BRANCH',
    organization_id: 'INVALID_ID',
  },
);
export type UpdateBranchRequest = z.input<typeof updateBranchRequestSchema>;

/** A branch as the organization area lists it. */
export const adminBranchSchema = publicBranchSchema.extend({
  name: z.string(),
  /** The head of the organization (its first branch). */
  head: z.boolean(),
  /** Customers can find it (active, verified, profile complete). */
  listed: z.boolean(),
  services: z.number().int(),
  staff: z.number().int(),
});
export type AdminBranch = z.infer<typeof adminBranchSchema>;

/** GET /api/organization/branches: every branch the caller may act on. */
export const adminBranchesResponseSchema = z.object({
  branches: z.array(adminBranchSchema),
  /** The caller may add branches and copy services across them. */
  can_manage: z.boolean(),
});
export type AdminBranchesResponse = z.infer<typeof adminBranchesResponseSchema>;

export const branchChangeResponseSchema = z.object({ branch: adminBranchSchema });
export type BranchChangeResponse = z.infer<typeof branchChangeResponseSchema>;

/** POST /api/organization/services/{service_id}/copy: the same service in other branches. */
export const copyServiceRequestSchema = withFieldCodes(
  z.object({ organization_ids: z.array(idSchema).min(1).max(50) }),
  { organization_ids: 'INVALID_BRANCH' },
);
export type CopyServiceRequest = z.input<typeof copyServiceRequestSchema>;

export const copyServiceResponseSchema = z.object({
  copied: z.array(z.object({ organization_id: idSchema, service_id: idSchema })),
  /** Branches that already have a service of that name: left as they are. */
  skipped: z.array(z.object({ organization_id: idSchema, reason: z.literal('SAME_NAME') })),
});
export type CopyServiceResponse = z.infer<typeof copyServiceResponseSchema>;
