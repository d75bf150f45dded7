import {
  bookingActionParamsSchema,
  bookingActionResponseSchema,
  checkinRefusalSchema,
  checkinRequestSchema,
  checkinResponseSchema,
  checkinSyncRequestSchema,
  checkinSyncResponseSchema,
  errorBodySchema,
  organizationScopeQuerySchema,
  todayResponseSchema,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import { ROLES_COUNTER, targetOrganization } from '../../core/access/roles.js';
import { errorResponses } from '../../errors.js';
import type { TurnMessages } from '../queue/queue.module.js';
import type { TicketSigner } from '../tickets/tickets.module.js';
import { checkIn, organizationToday } from './checkin.service.js';
import { syncCheckins } from './checkin-sync.js';
import { applyCounterAction, type CounterAction } from './counter-actions.js';

/** A refused check-in says why (and when it was checked in); other errors are plain. */
const refusalOrError = z.union([checkinRefusalSchema, errorBodySchema]);

/** 200 items of ~400-byte tokens: above the app's 64 KB default. */
const SYNC_BODY_LIMIT = 512 * 1024;

/**
 * Check-in at the counter: today's list, check-in by token or code, offline sync, no-show
 * and cancel. Staff, admins (their organization) and operators (the one they name).
 */
export function checkinRoutes(
  { db, clock, guard }: AppDeps,
  signer: TicketSigner,
  turns: TurnMessages | null = null,
): FastifyPluginAsyncZod {
  const counter = guard.require(ROLES_COUNTER);
  return async (app) => {
    app.get(
      '/organization/today',
      {
        onRequest: counter,
        schema: {
          querystring: organizationScopeQuerySchema,
          response: { 200: todayResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        const today = await organizationToday(db, organizationId, clock.now());
        return { ...today, keys: signer.publicKeys() };
      },
    );

    app.post(
      '/organization/checkins',
      {
        onRequest: counter,
        schema: {
          body: checkinRequestSchema,
          response: {
            200: checkinResponseSchema,
            400: refusalOrError,
            403: refusalOrError,
            404: refusalOrError,
            409: refusalOrError,
            ...errorResponses(401, 413, 415),
          },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const auth = authOf(req);
        const { token, code, organization_id } = req.body;
        const outcome = await checkIn(
          db,
          signer,
          {
            input: token !== undefined ? { token } : { code: code ?? '' },
            organizationId: targetOrganization(auth, organization_id),
            userId: auth.user.id,
          },
          clock.now(),
          turns,
        );
        if (!outcome.ok) return reply.code(outcome.status).send(outcome.body);
        return { result: 'checked_in' as const, booking: outcome.booking, queue: outcome.queue };
      },
    );

    app.post(
      '/organization/checkins/sync',
      {
        onRequest: counter,
        bodyLimit: SYNC_BODY_LIMIT,
        schema: {
          body: checkinSyncRequestSchema,
          response: {
            200: checkinSyncResponseSchema,
            ...errorResponses(400, 401, 403, 413, 415),
          },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const auth = authOf(req);
        const scope = {
          organizationId: targetOrganization(auth, req.body.organization_id),
          userId: auth.user.id,
        };
        return {
          results: await syncCheckins(db, signer, req.body.items, scope, clock.now(), turns),
        };
      },
    );

    const actions: [string, CounterAction][] = [
      ['no-show', 'no_show'],
      ['cancel', 'cancel'],
    ];
    for (const [path, action] of actions) {
      app.post(
        `/organization/bookings/:id/${path}`,
        {
          onRequest: counter,
          schema: {
            params: bookingActionParamsSchema,
            response: {
              200: bookingActionResponseSchema,
              ...errorResponses(400, 401, 403, 404, 409, 413, 415),
            },
          },
        },
        async (req, reply) => {
          reply.header('cache-control', 'no-store');
          const booking = await applyCounterAction(
            db,
            authOf(req),
            req.params.id,
            action,
            clock.now(),
            app.waitlist,
          );
          return { booking };
        },
      );
    }
  };
}
