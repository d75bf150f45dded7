import {
  clearSelfJoinsRequestSchema,
  clearSelfJoinsResponseSchema,
  counterListResponseSchema,
  counterPatchSchema,
  counterRequestSchema,
  counterResponseSchema,
  idSchema,
  joinInfoResponseSchema,
  joinRequestSchema,
  joinResponseSchema,
  organizationScopeQuerySchema,
  queueSettingsRequestSchema,
  queueSettingsResponseSchema,
  queueTodayResponseSchema,
  queueVisitResponseSchema,
  serviceLetterRequestSchema,
  serviceLetterResponseSchema,
  walkInRequestSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import { ROLES_ADMIN, ROLES_COUNTER, targetOrganization } from '../../core/access/roles.js';
import { errorResponses } from '../../errors.js';
import type { Limiter } from '../../limits/limiter.js';
import { counterDeskRoutes } from './counter-desk.routes.js';
import type { JoinCodes } from './join-code.js';
import { assertJoinCode } from './join-code.routes.js';
import type { QueueService } from './queue.service.js';
import { SelfJoinRefused } from './self-join-ceiling.js';

const counterParams = withFieldCodes(z.object({ id: idSchema }), { id: 'INVALID_ID' });
const serviceParams = withFieldCodes(z.object({ serviceId: idSchema }), {
  serviceId: 'INVALID_ID',
});
const organizationParams = withFieldCodes(z.object({ organizationId: idSchema }), {
  organizationId: 'INVALID_ID',
});

const writeErrors = errorResponses(400, 401, 403, 404, 409, 413, 415);
/** Queue routes write visits and counters only: no public catalogue answer reads them. */
const QUEUE_WRITE = { touchesCatalog: false } as const;

/**
 * The queue: the counter screen's reads and actions (staff, admins, operators
 * naming the organization), the admin's settings, counters and letters, and the public join
 * page (the only public route here).
 */
export function queueRoutes(
  { guard, config }: AppDeps,
  queue: QueueService,
  limits: Limiter,
  codes: JoinCodes,
): FastifyPluginAsyncZod {
  const counter = guard.require(ROLES_COUNTER);
  const admin = guard.require(ROLES_ADMIN);
  return async (app) => {
    app.get(
      '/queue/today',
      {
        onRequest: counter,
        schema: {
          querystring: organizationScopeQuerySchema,
          response: { 200: queueTodayResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        return queue.line.today(targetOrganization(authOf(req), req.query.organization_id));
      },
    );

    app.post(
      '/queue/visits',
      {
        onRequest: counter,
        config: QUEUE_WRITE,
        schema: {
          querystring: organizationScopeQuerySchema,
          body: walkInRequestSchema,
          response: { 201: queueVisitResponseSchema, ...writeErrors },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const auth = authOf(req);
        const visit = await queue.line.walkIn(
          targetOrganization(auth, req.query.organization_id),
          auth.user.id,
          req.body,
        );
        return reply.code(201).send({ visit });
      },
    );

    // A flood from the poster cleared in one act (decision 125).
    app.post(
      '/queue/self-joins/clear',
      {
        onRequest: counter,
        config: QUEUE_WRITE,
        schema: {
          querystring: organizationScopeQuerySchema,
          body: clearSelfJoinsRequestSchema,
          response: { 200: clearSelfJoinsResponseSchema, ...writeErrors },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const auth = authOf(req);
        const cleared = await queue.line.clearSelfJoins(
          targetOrganization(auth, req.query.organization_id),
          auth.user.id,
          req.body,
        );
        return { cleared };
      },
    );

    await app.register(counterDeskRoutes(queue, counter));

    // ---------------------------------------------------------------- the admin's

    app.get(
      '/queue/settings',
      {
        onRequest: admin,
        schema: {
          querystring: organizationScopeQuerySchema,
          response: { 200: queueSettingsResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        return { settings: await queue.setup.settings(organizationId) };
      },
    );

    app.put(
      '/queue/settings',
      {
        onRequest: admin,
        schema: {
          querystring: organizationScopeQuerySchema,
          body: queueSettingsRequestSchema,
          response: { 200: queueSettingsResponseSchema, ...writeErrors },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        return { settings: await queue.setup.updateSettings(organizationId, req.body) };
      },
    );

    app.get(
      '/queue/counters',
      {
        onRequest: counter,
        schema: {
          querystring: organizationScopeQuerySchema,
          response: { 200: counterListResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        return { counters: await queue.setup.listCounters(organizationId) };
      },
    );

    app.post(
      '/queue/counters',
      {
        onRequest: admin,
        config: QUEUE_WRITE,
        schema: {
          querystring: organizationScopeQuerySchema,
          body: counterRequestSchema,
          response: { 201: counterResponseSchema, ...writeErrors },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        const created = await queue.setup.createCounter(organizationId, req.body);
        return reply.code(201).send({ counter: created });
      },
    );

    app.patch(
      '/queue/counters/:id',
      {
        onRequest: admin,
        config: QUEUE_WRITE,
        schema: {
          params: counterParams,
          body: counterPatchSchema,
          response: { 200: counterResponseSchema, ...writeErrors },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        return { counter: await queue.setup.updateCounter(authOf(req), req.params.id, req.body) };
      },
    );

    app.put(
      '/queue/services/:serviceId/letter',
      {
        onRequest: admin,
        config: QUEUE_WRITE,
        schema: {
          params: serviceParams,
          querystring: organizationScopeQuerySchema,
          body: serviceLetterRequestSchema,
          response: { 200: serviceLetterResponseSchema, ...writeErrors },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        return queue.setup.setLetter(organizationId, req.params.serviceId, req.body.letter);
      },
    );

    // ---------------------------------------------------------------- public: the poster's page

    app.get(
      '/join/:organizationId',
      {
        schema: {
          params: organizationParams,
          response: { 200: joinInfoResponseSchema, ...errorResponses(400, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const info = await queue.line.joinInfo(req.params.organizationId);
        return { ...info, whatsapp: config.whatsapp !== null };
      },
    );

    app.post(
      '/join/:organizationId',
      {
        config: QUEUE_WRITE,
        schema: {
          params: organizationParams,
          body: joinRequestSchema,
          response: {
            201: joinResponseSchema,
            ...errorResponses(400, 403, 404, 409, 413, 415, 429),
          },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        // Refusals that cost nothing first; then counted before the work, so that joins
        // sent at once cannot all pass.
        const organizationId = req.params.organizationId;
        const { codeRequired } = await queue.line.assertJoinable(organizationId);
        // The hall's code before the joins are counted: a wrong code takes no join (decision 125).
        if (codeRequired) {
          await assertJoinCode(reply, limits, codes, {
            organizationId,
            code: req.body.code,
            address: req.ip,
          });
        }
        await limits.enforce(reply, [
          { limit: 'queue-joins-per-address', of: req.ip },
          ...(req.body.phone
            ? [{ limit: 'queue-joins-per-phone' as const, of: req.body.phone }]
            : []),
        ]);
        try {
          const joined = await queue.line.join(organizationId, req.body, req.ip);
          return reply.code(201).send(joined);
        } catch (error) {
          if (error instanceof SelfJoinRefused && error.retryAfterSeconds !== null) {
            reply.header('retry-after', error.retryAfterSeconds);
          }
          throw error;
        }
      },
    );
  };
}
