import {
  adminBranchesResponseSchema,
  branchChangeResponseSchema,
  copyServiceRequestSchema,
  copyServiceResponseSchema,
  createBranchRequestSchema,
  idSchema,
  organizationScopeQuerySchema,
  updateBranchRequestSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import {
  assertOrganizationAccess,
  managesBranches,
  ROLES_ADMIN,
  ROLES_ORGANIZATION,
  targetOrganization,
  visibleBranches,
} from '../../core/access/roles.js';
import { requireOrganization as requireOrganizationRow } from '../../core/organizations.repository.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError, errorResponses, notFound } from '../../errors.js';
import { headOf, insertBranch, listBranches, toAdminBranch } from './branches.repository.js';
import { OrganizationAdmin } from './organization-admin.service.js';

const serviceParams = withFieldCodes(z.object({ service_id: idSchema }), {
  service_id: 'INVALID_ID',
});

/** How many branches one organization may have: a bound, not a business rule. */
export const MAX_BRANCHES = 200;

const writeErrors = errorResponses(400, 401, 403, 404, 409, 413, 415);

/** Two branches of one organization share a name: 409, never a 500. */
function sameName(error: unknown): never {
  if (isUniqueViolation(error, 'organizations_branch_name_uq')) {
    throw new AppError(409, 'INVALID_BRANCH', 'Another branch of this organization has that name.');
  }
  throw error;
}

/**
 * Branches (decision 024): an organization admin lists, adds and names the
 * branches of their organization and copies a service to several; a branch manager sees and
 * names their own branch only. Every other screen of the area acts on one branch at a time
 * (the `x-qless-branch` header, see auth-guard.ts).
 */
export function branchesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, guard, config } = deps;
  const admin = new OrganizationAdmin(db, clock, config.publicOrigin);

  const requireOrganization = (id: string) => requireOrganizationRow(db, id);

  return async (app) => {
    app.addHook('onRequest', async (_req, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get(
      '/organization/branches',
      {
        onRequest: guard.require(ROLES_ADMIN),
        schema: {
          querystring: organizationScopeQuerySchema,
          response: { 200: adminBranchesResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const acting = await requireOrganization(
          targetOrganization(auth, req.query.organization_id),
        );
        const all = await listBranches(db, headOf(acting));
        return {
          branches: visibleBranches(auth.user, all),
          can_manage: managesBranches(auth.user),
        };
      },
    );

    app.post(
      '/organization/branches',
      {
        onRequest: guard.require(ROLES_ORGANIZATION),
        schema: {
          body: createBranchRequestSchema,
          response: { 201: branchChangeResponseSchema, ...writeErrors },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const acting = await requireOrganization(
          targetOrganization(auth, req.body.organization_id),
        );
        const now = clock.now();
        const branch = await db
          .transaction()
          .execute(async (trx) => {
            // The head's row lock orders concurrent additions, so the bound below holds.
            const head = await trx
              .selectFrom('organizations')
              .selectAll()
              .where('id', '=', headOf(acting))
              .forUpdate()
              .executeTakeFirstOrThrow();
            const count = await trx
              .selectFrom('organizations')
              .select((eb) => eb.fn.countAll<string | number>().as('n'))
              .where('parent_id', '=', head.id)
              .executeTakeFirstOrThrow();
            if (Number(count.n) + 1 >= MAX_BRANCHES) {
              throw new AppError(
                409,
                'INVALID_BRANCH',
                `An organization has at most ${MAX_BRANCHES} branches.`,
              );
            }
            return insertBranch(trx, head, req.body, now);
          })
          .catch(sameName);
        return reply.status(201).send({ branch: toAdminBranch(branch, 0, 0) });
      },
    );

    app.patch(
      '/organization/branch',
      {
        onRequest: guard.require(ROLES_ADMIN),
        schema: {
          body: updateBranchRequestSchema,
          response: { 200: branchChangeResponseSchema, ...writeErrors },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const id = targetOrganization(auth, req.body.organization_id);
        const { branch_name, latitude, longitude } = req.body;
        const row = await db
          .updateTable('organizations')
          .set({
            ...(branch_name !== undefined ? { branch_name } : {}),
            ...(latitude !== undefined ? { latitude, longitude: longitude ?? null } : {}),
            updated_at: clock.now(),
          })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst()
          .catch(sameName);
        if (!row) throw notFound('ORGANIZATION_NOT_FOUND', 'No such organization.');
        const [branch] = (await listBranches(db, headOf(row))).filter(
          (b) => b.organization_id === row.id,
        );
        return { branch: branch ?? toAdminBranch(row, 0, 0) };
      },
    );

    app.post(
      '/organization/services/:service_id/copy',
      {
        onRequest: guard.require(ROLES_ORGANIZATION),
        schema: {
          params: serviceParams,
          body: copyServiceRequestSchema,
          response: { 200: copyServiceResponseSchema, ...writeErrors },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const source = await db
          .selectFrom('services')
          .selectAll()
          .where('id', '=', req.params.service_id)
          .executeTakeFirst();
        if (!source) throw notFound('SERVICE_NOT_FOUND', 'No such service.');
        assertOrganizationAccess(auth, source.organization_id);
        const from = await requireOrganization(source.organization_id);
        const targets = [...new Set(req.body.organization_ids)].filter(
          (id) => id !== source.organization_id,
        );
        if (targets.length === 0) {
          throw new AppError(400, 'INVALID_BRANCH', 'Name at least one other branch.');
        }
        // Every target is a branch of the same organization and one the caller may act on.
        const rows = await db
          .selectFrom('organizations')
          .select(['id', 'parent_id'])
          .where('id', 'in', targets)
          .execute();
        for (const id of targets) {
          const row = rows.find((r) => r.id === id);
          if (!row || headOf(row) !== headOf(from)) {
            throw new AppError(404, 'BRANCH_NOT_FOUND', 'No such branch of this organization.');
          }
          assertOrganizationAccess(auth, id);
        }
        const copied: { organization_id: string; service_id: string }[] = [];
        const skipped: { organization_id: string; reason: 'SAME_NAME' }[] = [];
        for (const id of targets) {
          const same = await db
            .selectFrom('services')
            .select('id')
            .where('organization_id', '=', id)
            .where((eb) => eb(eb.fn('lower', ['name']), '=', source.name.toLowerCase()))
            .executeTakeFirst();
          if (same) {
            skipped.push({ organization_id: id, reason: 'SAME_NAME' });
            continue;
          }
          const made = await admin.createService(id, {
            service_name: source.name,
            service_description: source.description,
            service_name_fr: source.name_fr ?? undefined,
            service_description_fr: source.description_fr ?? undefined,
            duration: source.duration_minutes,
            capacity: source.capacity,
          });
          copied.push({ organization_id: id, service_id: made.service.service_id });
        }
        return { copied, skipped };
      },
    );
  };
}
