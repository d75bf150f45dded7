import { auditQuerySchema, auditResponseSchema } from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import { branchesInScope, ROLES_ADMIN, ROLES_OPERATOR } from '../../core/access/roles.js';
import { errorResponses } from '../../errors.js';
import { listAudit } from './audit.repository.js';

/**
 * Reading the audit log (decision 032); there is no route that changes it. Operators read
 * every entry in the console; in the organization area an admin reads their branches'
 * entries, a branch manager their branch's (the same scope as Insight); staff none.
 */
export function auditRoutes({ db, config, guard }: AppDeps): FastifyPluginAsyncZod {
  const operator = guard.require(ROLES_OPERATOR);
  const admin = guard.require(ROLES_ADMIN);
  return async (app) => {
    app.addHook('onRequest', async (_req, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get(
      '/platform/audit',
      {
        onRequest: operator,
        config: { touchesCatalog: false },
        schema: {
          querystring: auditQuerySchema,
          response: { 200: auditResponseSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (req) => {
        const q = req.query;
        return listAudit(db, {
          organizations: null,
          actor: q.actor,
          organizationId: q.organization_id,
          action: q.action,
          from: q.from,
          to: q.to,
          // The console shows and reads days in Cameroon's time.
          timeZone: config.defaultTimeZone,
          cursor: q.cursor,
          limit: q.limit,
        });
      },
    );

    app.get(
      '/organization/audit',
      {
        onRequest: admin,
        config: { touchesCatalog: false },
        schema: {
          querystring: auditQuerySchema,
          response: { 200: auditResponseSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (req) => {
        const q = req.query;
        const auth = authOf(req);
        const organizations = branchesInScope(auth, q.organization_id);
        // Days are the acting branch's (an operator's: the branch named).
        const acting = auth.user.organization_id ?? organizations[0];
        const zone = acting
          ? await db
              .selectFrom('organizations')
              .select('time_zone')
              .where('id', '=', acting)
              .executeTakeFirst()
          : undefined;
        return listAudit(db, {
          organizations,
          actor: q.actor,
          action: q.action,
          from: q.from,
          to: q.to,
          timeZone: zone?.time_zone ?? config.defaultTimeZone,
          cursor: q.cursor,
          limit: q.limit,
        });
      },
    );
  };
}
