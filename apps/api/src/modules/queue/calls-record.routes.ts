import { callsRecordQuerySchema, callsRecordResponseSchema } from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import { ROLES_ADMIN, targetOrganization } from '../../core/access/roles.js';
import { requireOrganization } from '../../core/organizations.repository.js';
import { errorResponses } from '../../errors.js';
import type { TicketSigner } from '../tickets/tickets.module.js';
import { signedCallsRecord } from './calls-record.js';

/**
 * GET /queue/calls-record?date= (admin, branch manager; operators name the branch): the day's
 * calls, chained and signed with the deployment's key (decision 139). Kept in the audit log.
 */
export function callsRecordRoutes(
  { db, clock, guard }: AppDeps,
  signer: TicketSigner,
): FastifyPluginAsyncZod {
  const admin = guard.require(ROLES_ADMIN);
  return async (app) => {
    app.get(
      '/queue/calls-record',
      {
        onRequest: admin,
        config: { audit: true, touchesCatalog: false },
        schema: {
          querystring: callsRecordQuerySchema,
          response: { 200: callsRecordResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        await requireOrganization(db, organizationId); // an operator may name one that is not
        return signedCallsRecord(db, signer, organizationId, req.query.date, clock.now());
      },
    );
  };
}
