import {
  addDays,
  bookingsRangeQuerySchema,
  daysBetween,
  idSchema,
  MAX_BOOKINGS_RANGE_DAYS,
  organizationListResponseSchema,
  organizationResponseSchema,
  serviceListResponseSchema,
  serviceResponseSchema,
  slotListResponseSchema,
  takenSlotListResponseSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';
import { AppError, errorResponses, notFound } from '../errors.js';
import { listTakenSlots } from './bookings/bookings.repository.js';
import {
  findActiveOrganization,
  listActiveOrganizations,
  toOrganization,
} from './organizations/organizations.repository.js';
import {
  findActiveService,
  listActiveServices,
  toService,
} from './services/services.repository.js';
import { findLiveSlotsOfActiveService, toSlot } from './slots/slots.repository.js';

const orgParams = withFieldCodes(z.object({ orgId: idSchema }), { orgId: 'INVALID_ID' });
const serviceParams = withFieldCodes(z.object({ serviceId: idSchema }), {
  serviceId: 'INVALID_ID',
});
const notFoundOrInvalid = errorResponses(400, 404);

/** The public, read-only catalogue: organizations, services, slots and taken slot-dates. */
export function catalogRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock } = deps;

  async function requireOrganization(orgId: string) {
    const org = await findActiveOrganization(db, orgId);
    if (!org) throw notFound('ORGANIZATION_NOT_FOUND', 'No such organization.');
    return org;
  }

  async function requireService(serviceId: string) {
    const found = await findActiveService(db, serviceId);
    if (!found) throw notFound('SERVICE_NOT_FOUND', 'No such service.');
    return found;
  }

  return async (app) => {
    app.get(
      '/organizations',
      { schema: { response: { 200: organizationListResponseSchema, ...errorResponses() } } },
      async () => ({ organizations: (await listActiveOrganizations(db)).map(toOrganization) }),
    );

    app.get(
      '/organizations/:orgId',
      {
        schema: {
          params: orgParams,
          response: { 200: organizationResponseSchema, ...notFoundOrInvalid },
        },
      },
      async (req) => ({
        organization: toOrganization(await requireOrganization(req.params.orgId)),
      }),
    );

    app.get(
      '/organizations/:orgId/services',
      {
        schema: {
          params: orgParams,
          response: { 200: serviceListResponseSchema, ...notFoundOrInvalid },
        },
      },
      async (req) => {
        const org = await requireOrganization(req.params.orgId);
        return { services: (await listActiveServices(db, org.id)).map(toService) };
      },
    );

    app.get(
      '/service/:serviceId',
      {
        schema: {
          params: serviceParams,
          response: { 200: serviceResponseSchema, ...notFoundOrInvalid },
        },
      },
      async (req) => {
        const { service, organization } = await requireService(req.params.serviceId);
        return { service: toService(service), organization: toOrganization(organization) };
      },
    );

    app.get(
      '/service/:serviceId/slots',
      {
        schema: {
          params: serviceParams,
          response: { 200: slotListResponseSchema, ...notFoundOrInvalid },
        },
      },
      async (req) => {
        const slots = await findLiveSlotsOfActiveService(db, req.params.serviceId);
        if (!slots) throw notFound('SERVICE_NOT_FOUND', 'No such service.');
        return { slots: slots.map(toSlot) };
      },
    );

    app.get(
      '/service/:serviceId/bookings',
      {
        schema: {
          params: serviceParams,
          querystring: bookingsRangeQuerySchema,
          response: { 200: takenSlotListResponseSchema, ...notFoundOrInvalid },
        },
      },
      async (req) => {
        const { start, end } = req.query;
        if (start > end) {
          throw new AppError(400, 'INVALID_DATE_RANGE', 'start must not be after end.');
        }
        if (daysBetween(start, end) + 1 > MAX_BOOKINGS_RANGE_DAYS) {
          throw new AppError(
            400,
            'DATE_RANGE_TOO_LONG',
            `Ask for at most ${MAX_BOOKINGS_RANGE_DAYS} days at a time (up to ${addDays(start, MAX_BOOKINGS_RANGE_DAYS - 1)}).`,
          );
        }
        const { service } = await requireService(req.params.serviceId);
        return { bookings: await listTakenSlots(db, service.id, start, end, clock.now()) };
      },
    );
  };
}
