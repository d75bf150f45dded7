import {
  adminBookingsQuerySchema,
  adminBookingsResponseSchema,
  closureRequestSchema,
  closuresResponseSchema,
  createServiceRequestSchema,
  idSchema,
  isoDateSchema,
  organizationDataResponseSchema,
  organizationScopeQuerySchema,
  serviceChangeResponseSchema,
  updateProfileRequestSchema,
  updateProfileResponseSchema,
  updateServiceRequestSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import {
  assertOrganizationAccess,
  ROLES_ADMIN,
  ROLES_COUNTER,
  targetOrganization,
} from '../../core/access/roles.js';
import { requireOrganization as requireOrganizationRow } from '../../core/organizations.repository.js';
import { AppError, errorResponses } from '../../errors.js';
import {
  listAllServices,
  listOrganizationBookings,
  organizationStats,
  toAdminService,
  toProfile,
} from './organization-admin.repository.js';
import { OrganizationAdmin } from './organization-admin.service.js';

const bookingsParams = withFieldCodes(z.object({ id: idSchema }), { id: 'INVALID_ID' });
const createServiceParams = withFieldCodes(z.object({ organization_id: idSchema }), {
  organization_id: 'INVALID_ID',
});
const serviceParams = withFieldCodes(z.object({ service_id: idSchema }), {
  service_id: 'INVALID_ID',
});
const closureParams = withFieldCodes(z.object({ date: isoDateSchema }), { date: 'INVALID_DATE' });

/** Writes: body problems, no session, another organization, unknown ids, oversized bodies. */
const writeErrors = errorResponses(400, 401, 403, 404, 413, 415);

/**
 * The organization area's API (spec section 7): every route acts on the
 * caller's own organization; operators name the one they act on. Nothing here is cached.
 */
export function organizationAdminRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, guard, config } = deps;
  const admin = new OrganizationAdmin(db, clock, config.publicOrigin);

  const requireOrganization = (id: string) => requireOrganizationRow(db, id);

  return async (app) => {
    // Customers' names and phone numbers: never kept by a browser or a proxy.
    app.addHook('onRequest', async (_req, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get(
      '/organization/data',
      {
        // Counter staff need their organization's name and today's list too.
        onRequest: guard.require(ROLES_COUNTER),
        schema: {
          querystring: organizationScopeQuerySchema,
          response: { 200: organizationDataResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const orgId = targetOrganization(authOf(req), req.query.organization_id);
        const org = await requireOrganization(orgId);
        const now = clock.now();
        const [organizationData, services, stats] = await Promise.all([
          toProfile(db, org, now),
          listAllServices(db, org.id),
          organizationStats(db, org, now),
        ]);
        return { organizationData, services: services.map(toAdminService), stats };
      },
    );

    app.get(
      '/organization/:id/bookings',
      {
        onRequest: guard.require(ROLES_ADMIN),
        schema: {
          params: bookingsParams,
          querystring: adminBookingsQuerySchema,
          response: { 200: adminBookingsResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        assertOrganizationAccess(authOf(req), req.params.id);
        const org = await requireOrganization(req.params.id);
        const { page, page_size, from, to, status, attention } = req.query;
        if (from !== undefined && to !== undefined && from > to) {
          throw new AppError(400, 'INVALID_DATE_RANGE', '"from" must not be after "to".');
        }
        const result = await listOrganizationBookings(
          db,
          org.id,
          {
            from,
            to,
            statuses: status,
            attention: attention === undefined ? undefined : attention === 'true',
          },
          { page, pageSize: page_size },
        );
        return { ...result, page, page_size };
      },
    );

    app.post(
      '/:organization_id/services',
      {
        onRequest: guard.require(ROLES_ADMIN),
        schema: {
          params: createServiceParams,
          body: createServiceRequestSchema,
          response: { 201: serviceChangeResponseSchema, ...writeErrors },
        },
      },
      async (req, reply) => {
        const orgId = targetOrganization(authOf(req), req.params.organization_id);
        const named = req.body.organization_id;
        if (named !== undefined && named !== orgId) {
          throw new AppError(
            400,
            'INVALID_ID',
            'organization_id in the body differs from the one in the address.',
          );
        }
        const result = await admin.createService(orgId, req.body);
        return reply.status(201).send(result);
      },
    );

    app.patch(
      '/organization/services/:service_id',
      {
        onRequest: guard.require(ROLES_ADMIN),
        schema: {
          params: serviceParams,
          body: updateServiceRequestSchema,
          response: { 200: serviceChangeResponseSchema, ...writeErrors },
        },
      },
      async (req) => admin.updateService(authOf(req), req.params.service_id, req.body),
    );

    app.patch(
      '/organization/update/profile',
      {
        onRequest: guard.require(ROLES_ADMIN),
        schema: {
          body: updateProfileRequestSchema,
          response: { 200: updateProfileResponseSchema, ...writeErrors },
        },
      },
      async (req) => {
        const orgId = targetOrganization(authOf(req), req.body.organization_id);
        return admin.updateProfile(orgId, req.body);
      },
    );

    app.post(
      '/organization/closures',
      {
        onRequest: guard.require(ROLES_ADMIN),
        schema: {
          body: closureRequestSchema,
          response: { 200: closuresResponseSchema, ...writeErrors },
        },
      },
      async (req) => {
        const orgId = targetOrganization(authOf(req), req.body.organization_id);
        return admin.addClosure(orgId, req.body.date, req.body.reason);
      },
    );

    app.delete(
      '/organization/closures/:date',
      {
        onRequest: guard.require(ROLES_ADMIN),
        schema: {
          params: closureParams,
          querystring: organizationScopeQuerySchema,
          response: { 200: closuresResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const orgId = targetOrganization(authOf(req), req.query.organization_id);
        return admin.removeClosure(orgId, req.params.date);
      },
    );
  };
}
