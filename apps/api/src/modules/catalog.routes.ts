import {
  addDays,
  bookingsRangeQuerySchema,
  DEFAULT_ORGANIZATIONS_PAGE_SIZE,
  daysBetween,
  idSchema,
  MAX_BOOKINGS_RANGE_DAYS,
  organizationListResponseSchema,
  organizationResponseSchema,
  organizationSearchQuerySchema,
  serviceListResponseSchema,
  serviceResponseSchema,
  slotListResponseSchema,
  takenSlotListResponseSchema,
  withFieldCodes,
  zonedNow,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';
import { AppError, errorResponses, notFound } from '../errors.js';
import { listSeatsTaken, listTakenSlots } from './bookings/bookings.repository.js';
import {
  findListedOrganization,
  listClosures,
  listListedOrganizations,
  maskToOpenDays,
  searchListedOrganizations,
  toOrganization,
} from './organizations/organizations.repository.js';
import {
  findListedService,
  listActiveServices,
  toService,
} from './services/services.repository.js';
import { findLiveSlotsOfListedService, toSlot } from './slots/slots.repository.js';

const orgParams = withFieldCodes(z.object({ orgId: idSchema }), { orgId: 'INVALID_ID' });
const serviceParams = withFieldCodes(z.object({ serviceId: idSchema }), {
  serviceId: 'INVALID_ID',
});
const notFoundOrInvalid = errorResponses(400, 404);

/**
 * The public, read-only catalogue: organizations, services, slots and taken slot-dates.
 * Only listed organizations (active, verified, complete) and their active services exist
 * here; anything else answers 404 as unknown.
 */
export function catalogRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock } = deps;

  async function requireOrganization(orgId: string) {
    const org = await findListedOrganization(db, orgId);
    if (!org) throw notFound('ORGANIZATION_NOT_FOUND', 'No such organization.');
    return org;
  }

  async function requireService(serviceId: string) {
    const found = await findListedService(db, serviceId);
    if (!found) throw notFound('SERVICE_NOT_FOUND', 'No such service.');
    return found;
  }

  return async (app) => {
    app.get(
      '/organizations',
      {
        schema: {
          querystring: organizationSearchQuerySchema,
          response: { 200: organizationListResponseSchema, ...errorResponses(400) },
        },
      },
      async (req) => {
        const { q, page, page_size } = req.query;
        // The spec's client asks with no query and reads the whole list, as it always did.
        if (q === undefined && page === undefined && page_size === undefined) {
          return { organizations: (await listListedOrganizations(db)).map(toOrganization) };
        }
        const size = page_size ?? DEFAULT_ORGANIZATIONS_PAGE_SIZE;
        const current = page ?? 1;
        const { rows, total } = await searchListedOrganizations(db, q ?? '', current, size);
        return {
          organizations: rows.map(toOrganization),
          total,
          page: current,
          page_size: size,
        };
      },
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
        const found = await findLiveSlotsOfListedService(db, req.params.serviceId);
        if (!found) throw notFound('SERVICE_NOT_FOUND', 'No such service.');
        // The week view greys out closed days; closures past the horizon cannot be booked anyway.
        // "Today" and the horizon are the organization's, whatever the server's zone.
        const today = zonedNow(found.timeZone, clock.now()).date;
        const bookableUntil = addDays(today, deps.config.payments.horizonDays);
        const closures = await listClosures(db, found.organizationId, today, bookableUntil);
        return {
          slots: found.slots.map(toSlot),
          open_days: maskToOpenDays(found.openDays),
          closures: closures.map((c) => c.date),
          today,
          bookable_until: bookableUntil,
        };
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
        const now = clock.now();
        return {
          bookings: await listTakenSlots(db, service.id, start, end, now),
          seats_taken: await listSeatsTaken(db, service.id, start, end, now),
        };
      },
    );
  };
}
