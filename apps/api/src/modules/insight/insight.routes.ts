import { Readable } from 'node:stream';
import {
  DEFAULT_TIME_ZONE,
  daysBetween,
  INSIGHT_MAX_DAYS,
  insightExportQuerySchema,
  insightQuerySchema,
  insightResponseSchema,
  smsBudgetRequestSchema,
  smsBudgetResponseSchema,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import { branchesInScope, ROLES_ADMIN } from '../../core/access/roles.js';
import type { Db } from '../../db/schema.js';
import { AppError, errorResponses, notFound } from '../../errors.js';
import { findBranches, insight, insightOptions } from './insight.repository.js';
import { exportCsv, exportFilename } from './insight-export.js';
import { dialectOf } from './insight-export-words.js';
import { messageFigures } from './insight-messages.js';

/** Days from `from` to `to` inclusive; refuses a reversed or too long range. */
export function checkRange(from: string, to: string): number {
  if (from > to) {
    throw new AppError(400, 'INVALID_DATE_RANGE', '"from" must not be after "to".');
  }
  const days = daysBetween(from, to) + 1;
  if (days > INSIGHT_MAX_DAYS) {
    throw new AppError(
      400,
      'DATE_RANGE_TOO_LONG',
      `A range covers at most ${INSIGHT_MAX_DAYS} days.`,
    );
  }
  return days;
}

async function branchesOf(db: Db, organizationIds: string[]) {
  const branches = await findBranches(db, organizationIds);
  if (branches.length !== organizationIds.length) {
    throw notFound('ORGANIZATION_NOT_FOUND', 'No such organization.');
  }
  return branches;
}

/**
 * Insight: figures over a range of days and the CSV of the rows behind them.
 * Admin routes (org_admin; operators name the organization).
 */
export function insightRoutes({ db, guard, config, clock }: AppDeps): FastifyPluginAsyncZod {
  const admin = guard.require(ROLES_ADMIN);
  return async (app) => {
    // Figures of customers' visits and, in the CSV, their names: never kept by a cache.
    app.addHook('onRequest', async (_req, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get(
      '/organization/insight',
      {
        onRequest: admin,
        config: { touchesCatalog: false },
        schema: {
          querystring: insightQuerySchema,
          response: { 200: insightResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const q = req.query;
        const days = checkRange(q.from, q.to);
        const organizationIds = branchesInScope(authOf(req), q.organization_id);
        const branches = await branchesOf(db, organizationIds);
        const options = await insightOptions(db, organizationIds);
        if (q.service_id && !options.services.some((s) => s.id === q.service_id)) {
          throw notFound('SERVICE_NOT_FOUND', 'No such service here.');
        }
        if (q.counter_id && !options.counters.some((c) => c.id === q.counter_id)) {
          throw notFound('COUNTER_NOT_FOUND', 'No such counter here.');
        }
        const scope = {
          organizationIds,
          from: q.from,
          to: q.to,
          serviceId: q.service_id ?? null,
          counterId: q.counter_id ?? null,
        };
        const timeZone = branches[0]?.time_zone ?? DEFAULT_TIME_ZONE;
        const [figures, messages] = await Promise.all([
          insight(db, scope, branches, options, days),
          messageFigures(
            db,
            scope,
            timeZone,
            { sms: config.sms.priceXaf, whatsapp: config.whatsapp?.priceXaf ?? 0 },
            clock.now(),
          ),
        ]);
        return { ...figures, messages };
      },
    );

    app.put(
      '/organization/sms-budget',
      {
        onRequest: admin,
        config: { touchesCatalog: false, audit: true },
        schema: {
          body: smsBudgetRequestSchema,
          response: { 200: smsBudgetResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const organizationIds = branchesInScope(authOf(req), req.body.organization_id);
        const [organizationId] = organizationIds;
        if (organizationIds.length !== 1 || !organizationId) {
          throw new AppError(400, 'BRANCH_REQUIRED', 'Name the branch whose budget this is.');
        }
        await branchesOf(db, organizationIds);
        await db
          .updateTable('organizations')
          .set({ sms_budget_monthly_xaf: req.body.monthly_sms_xaf })
          .where('id', '=', organizationId)
          .execute();
        return { organization_id: organizationId, monthly_sms_xaf: req.body.monthly_sms_xaf };
      },
    );

    app.get(
      '/organization/insight/export.csv',
      {
        onRequest: admin,
        config: { touchesCatalog: false, audit: true },
        schema: {
          querystring: insightExportQuerySchema,
          // The file streams out as it is read: Fastify pipes a stream, no serializer involved.
          response: {
            200: z.custom<Readable>((v) => v instanceof Readable),
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (req, reply) => {
        const q = req.query;
        checkRange(q.from, q.to);
        const organizationIds = branchesInScope(authOf(req), q.organization_id);
        const branches = await branchesOf(db, organizationIds);
        const options = await insightOptions(db, organizationIds);
        if (q.service_id && !options.services.some((s) => s.id === q.service_id)) {
          throw notFound('SERVICE_NOT_FOUND', 'No such service here.');
        }
        if (q.counter_id && !options.counters.some((c) => c.id === q.counter_id)) {
          throw notFound('COUNTER_NOT_FOUND', 'No such counter here.');
        }
        // One zone for the whole file, the one the header names (the first branch's).
        const timeZone = branches[0]?.time_zone ?? 'Africa/Douala';
        // Only ASCII we wrote ourselves: the kind and two validated dates.
        const filename = exportFilename(q.kind, q.from, q.to, dialectOf(q.format));
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('x-content-type-options', 'nosniff');
        return reply.send(
          Readable.from(
            exportCsv(
              db,
              q.kind,
              {
                organizationIds,
                from: q.from,
                to: q.to,
                timeZone,
                serviceId: q.service_id ?? null,
                counterId: q.counter_id ?? null,
              },
              q.format,
            ),
          ),
        );
      },
    );
  };
}
