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
  publicBranchesResponseSchema,
  serviceListResponseSchema,
  serviceResponseSchema,
  slotListResponseSchema,
  takenSlotListResponseSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, errorResponses } from '../../errors.js';
import type { CatalogReads } from './catalog-reads.js';
import { type CachedAnswer, matchesIfNoneMatch } from './read-cache.js';

const orgParams = withFieldCodes(z.object({ orgId: idSchema }), { orgId: 'INVALID_ID' });
const serviceParams = withFieldCodes(z.object({ serviceId: idSchema }), {
  serviceId: 'INVALID_ID',
});
const notFoundOrInvalid = errorResponses(400, 404);

/**
 * Sends a prepared answer as it is (no second serialization). Browsers and proxies may
 * keep it but must ask again each time (no-cache): a change must show on the next read,
 * and asking again costs them a 304 with no body when nothing changed.
 */
function send(req: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  reply.header('cache-control', 'no-cache').header('etag', answer.etag);
  if (matchesIfNoneMatch(req.headers['if-none-match'], answer.etag)) {
    return reply.code(304).send();
  }
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

/**
 * The public, read-only catalogue: organizations, services, slots and taken slot-dates.
 * Only listed organizations (active, verified, complete) and their active services exist
 * here; anything else answers 404 as unknown. Answers come from the read cache
 * (modules/catalog/read-cache.ts), validated against the contract when computed.
 */
export function catalogRoutes(reads: CatalogReads): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/organizations',
      {
        schema: {
          querystring: organizationSearchQuerySchema,
          response: { 200: organizationListResponseSchema, ...errorResponses(400) },
        },
      },
      async (req, reply) => {
        const { q, page, page_size } = req.query;
        if (q === undefined && page === undefined && page_size === undefined) {
          return send(req, reply, await reads.organizations());
        }
        const answer = await reads.searchOrganizations(
          q ?? '',
          page ?? 1,
          page_size ?? DEFAULT_ORGANIZATIONS_PAGE_SIZE,
        );
        return send(req, reply, answer);
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
      async (req, reply) => send(req, reply, await reads.organization(req.params.orgId)),
    );

    app.get(
      '/organizations/:orgId/services',
      {
        schema: {
          params: orgParams,
          response: { 200: serviceListResponseSchema, ...notFoundOrInvalid },
        },
      },
      async (req, reply) => send(req, reply, await reads.organizationServices(req.params.orgId)),
    );

    app.get(
      '/organizations/:orgId/branches',
      {
        schema: {
          params: orgParams,
          response: { 200: publicBranchesResponseSchema, ...notFoundOrInvalid },
        },
      },
      async (req, reply) => send(req, reply, await reads.organizationBranches(req.params.orgId)),
    );

    app.get(
      '/service/:serviceId',
      {
        schema: {
          params: serviceParams,
          response: { 200: serviceResponseSchema, ...notFoundOrInvalid },
        },
      },
      async (req, reply) => send(req, reply, await reads.service(req.params.serviceId)),
    );

    app.get(
      '/service/:serviceId/slots',
      {
        schema: {
          params: serviceParams,
          response: { 200: slotListResponseSchema, ...notFoundOrInvalid },
        },
      },
      async (req, reply) => send(req, reply, await reads.slots(req.params.serviceId)),
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
      async (req, reply) => {
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
        return send(req, reply, await reads.taken(req.params.serviceId, start, end));
      },
    );
  };
}
