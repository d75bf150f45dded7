import {
  personalDataEraseResponseSchema,
  personalDataEraseSchema,
  personalDataExportSchema,
  personalDataQuerySchema,
  privacyInfoSchema,
} from '@qless/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { ROLES_OPERATOR } from '../../core/access/roles.js';
import { errorResponses } from '../../errors.js';
import { routeLimit } from '../../limits/declarations.js';
import type { WaitlistOffers } from '../waitlist/waitlist.module.js';
import { eraseSubject, exportSubject, maskedSubject, subjectOf } from './personal-data-subject.js';

/**
 * Personal data (decision 031): the operator's export and erasure of what is
 * held about one phone number or e-mail address (platform operators only), and the periods
 * the public privacy page states. The phone or e-mail is never logged in full (request logs
 * withhold this path's query; the lines here name the subject by its last characters).
 */
export function privacyRoutes(
  { db, clock, config, guard }: AppDeps,
  waitlist: WaitlistOffers,
): FastifyPluginAsyncZod {
  const onRequest = guard.require(ROLES_OPERATOR);
  const rateLimit = routeLimit('personal-data-requests', config);
  const retentionDays = config.personalData.retentionDays;

  return async (app) => {
    app.get(
      '/privacy',
      {
        config: { touchesCatalog: false },
        schema: { response: { 200: privacyInfoSchema } },
      },
      async (_req, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return {
          retention_days: retentionDays,
          audit_retention_days: config.audit.retentionDays,
        };
      },
    );

    const exported = async (
      req: FastifyRequest,
      reply: FastifyReply,
      input: { phone?: string | undefined; email?: string | undefined },
      code: 'INVALID_QUERY' | 'INVALID_BODY',
    ) => {
      const subject = subjectOf(input, code);
      const now = clock.now();
      const body = await exportSubject(db, subject, now, retentionDays);
      req.log.info({ subject: maskedSubject(subject) }, 'personal data exported');
      const day = now.toISOString().slice(0, 10);
      reply.header('cache-control', 'no-store');
      reply.header('content-disposition', `attachment; filename="qless-personal-data-${day}.json"`);
      return body;
    };

    app.get(
      '/platform/personal-data',
      {
        onRequest,
        // The audit log records this read too (decision 032: `audit: true` on a GET).
        config: { rateLimit, audit: true, touchesCatalog: false },
        schema: {
          querystring: personalDataQuerySchema,
          response: { 200: personalDataExportSchema, ...errorResponses(400, 401, 403, 429) },
        },
      },
      (req, reply) => exported(req, reply, req.query, 'INVALID_QUERY'),
    );

    // The same, the subject in the body: no URL (a proxy's access log, the browser's history)
    // ever holds the number or address. The console uses this one.
    app.post(
      '/platform/personal-data/export',
      {
        onRequest,
        config: { rateLimit, audit: true, touchesCatalog: false },
        schema: {
          body: personalDataQuerySchema,
          response: {
            200: personalDataExportSchema,
            ...errorResponses(400, 401, 403, 413, 415, 429),
          },
        },
      },
      (req, reply) => exported(req, reply, req.body, 'INVALID_BODY'),
    );

    app.post(
      '/platform/personal-data/erase',
      {
        onRequest,
        config: { rateLimit, touchesCatalog: false },
        schema: {
          body: personalDataEraseSchema,
          response: {
            200: personalDataEraseResponseSchema,
            ...errorResponses(400, 401, 403, 409, 413, 415, 429),
          },
        },
      },
      async (req, reply) => {
        const subject = subjectOf(req.body, 'INVALID_BODY');
        const { erased, withdrawn } = await eraseSubject(db, subject, clock.now(), waitlist);
        req.log.info({ subject: maskedSubject(subject), erased }, 'personal data erased');
        reply.header('cache-control', 'no-store');
        return {
          subject: { phone: subject.phone, email: subject.email },
          erased,
          withdrawn_waitlist_entries: withdrawn,
        };
      },
    );
  };
}
