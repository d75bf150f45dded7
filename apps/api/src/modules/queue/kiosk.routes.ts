/**
 * The kiosk and the slip (decision 135): kiosk links (admin, made and revoked in Queue setup like
 * board links), what a kiosk reads and the number it issues (public, by its token: it only adds
 * visitors to its branch's line and answers the slip of the press it sent), a walk-in's slip
 * printed again at the counter, and the short code of a slip that opens the turn on any phone.
 */
import {
  followResponseSchema,
  idSchema,
  KIOSK_PAPERS,
  kioskCreatedResponseSchema,
  kioskInfoSchema,
  kioskIssueRequestSchema,
  kioskListResponseSchema,
  kioskRequestSchema,
  kioskResponseSchema,
  normalizeFollowCode,
  organizationScopeQuerySchema,
  visitSlipResponseSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import { ROLES_ADMIN, ROLES_COUNTER, targetOrganization } from '../../core/access/roles.js';
import type { Db } from '../../db/schema.js';
import { AppError, errorResponses } from '../../errors.js';
import type { Limiter } from '../../limits/limiter.js';
import { visitOfFollowCode } from './follow-codes.js';
import { findHallLink, newHallToken, revokeHallLink } from './hall-links.js';
import type { QueueService } from './queue.service.js';
import type { TurnMessages } from './turn-messages.js';

const kioskIdParams = withFieldCodes(z.object({ kioskId: idSchema }), { kioskId: 'INVALID_ID' });
const tokenParams = withFieldCodes(z.object({ token: z.string().max(100) }), {
  token: 'KIOSK_NOT_FOUND',
});
const visitParams = withFieldCodes(z.object({ visitId: idSchema }), { visitId: 'INVALID_ID' });
const codeParams = z.object({ code: z.string().max(40) });

const kioskNotFound = () =>
  new AppError(404, 'KIOSK_NOT_FOUND', 'This kiosk link does not exist or was revoked.');
const QUEUE_WRITE = { touchesCatalog: false } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What the admin sees of a kiosk link (never its hash). */
const KIOSK_COLUMNS = ['id', 'name', 'paper', 'created_at', 'revoked_at'] as const;

function listKiosks(db: Db, organizationId: string) {
  return db
    .selectFrom('kiosks')
    .select(KIOSK_COLUMNS)
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

type KioskRow = Awaited<ReturnType<typeof listKiosks>>[number];

function toKiosk(row: KioskRow) {
  return {
    kiosk_id: row.id,
    name: row.name,
    paper: row.paper,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

/** The live kiosk a token opens, with its paper; 404 KIOSK_NOT_FOUND otherwise. */
async function kioskOf(db: Db, token: string) {
  const link = await findHallLink(db, 'kiosk', token);
  if (!link) throw kioskNotFound();
  const row = await db
    .selectFrom('kiosks')
    .select(['id', 'organization_id', 'paper'])
    .where('id', '=', link.id)
    .executeTakeFirstOrThrow();
  return row;
}

export function kioskRoutes(
  { db, clock, guard }: AppDeps,
  queue: QueueService,
  limits: Limiter,
  turns: TurnMessages,
): FastifyPluginAsyncZod {
  const admin = guard.require(ROLES_ADMIN);
  const counter = guard.require(ROLES_COUNTER);
  return async (app) => {
    app.get(
      '/queue/kiosks',
      {
        onRequest: admin,
        schema: {
          querystring: organizationScopeQuerySchema,
          response: { 200: kioskListResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        return { kiosks: (await listKiosks(db, organizationId)).map(toKiosk) };
      },
    );

    app.post(
      '/queue/kiosks',
      {
        onRequest: admin,
        config: QUEUE_WRITE,
        schema: {
          querystring: organizationScopeQuerySchema,
          body: kioskRequestSchema,
          response: {
            201: kioskCreatedResponseSchema,
            ...errorResponses(400, 401, 403, 404, 413, 415),
          },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const organizationId = targetOrganization(auth, req.query.organization_id);
        const { token, hash } = newHallToken('kiosk');
        const row = await db
          .insertInto('kiosks')
          .values({
            organization_id: organizationId,
            name: req.body.name,
            paper: req.body.paper ?? KIOSK_PAPERS[0],
            token_hash: hash,
            created_by: auth.user.id,
            created_at: clock.now(),
          })
          .returning(KIOSK_COLUMNS)
          .executeTakeFirstOrThrow();
        // The token is shown this once; only its hash is kept.
        return reply
          .header('cache-control', 'no-store')
          .status(201)
          .send({ kiosk: toKiosk(row), token });
      },
    );

    app.delete(
      '/queue/kiosks/:kioskId',
      {
        onRequest: admin,
        config: QUEUE_WRITE,
        schema: {
          params: kioskIdParams,
          querystring: organizationScopeQuerySchema,
          response: { 200: kioskResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        const revoked = await revokeHallLink(
          db,
          'kiosk',
          req.params.kioskId,
          organizationId,
          clock.now(),
        );
        if (!revoked) throw kioskNotFound();
        const row = await db
          .selectFrom('kiosks')
          .select(KIOSK_COLUMNS)
          .where('id', '=', revoked.id)
          .executeTakeFirstOrThrow();
        return { kiosk: toKiosk(row) };
      },
    );

    app.get(
      '/kiosk/:token',
      {
        schema: {
          params: tokenParams,
          response: { 200: kioskInfoSchema, ...errorResponses(400, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const kiosk = await kioskOf(db, req.params.token);
        return queue.line.kioskInfo(kiosk.organization_id, kiosk.paper);
      },
    );

    app.post(
      '/kiosk/:token/visits',
      {
        config: QUEUE_WRITE,
        schema: {
          params: tokenParams,
          body: kioskIssueRequestSchema,
          response: {
            201: visitSlipResponseSchema,
            ...errorResponses(400, 404, 409, 413, 415, 429),
          },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const kiosk = await kioskOf(db, req.params.token);
        // A press sent again after a lost answer gets its number, whatever the limits say now.
        const issued = await queue.line.issuedSlip(kiosk.organization_id, req.body.request_id);
        if (issued) return reply.code(201).send({ slip: issued });
        await limits.enforce(reply, [
          { limit: 'kiosk-numbers-per-kiosk', of: kiosk.id },
          // A phone typed at a kiosk gets SMS: a kiosk cannot send them to one number all day.
          ...(req.body.phone
            ? [{ limit: 'kiosk-numbers-per-phone' as const, of: req.body.phone }]
            : []),
        ]);
        const slip = await queue.line.issueAtKiosk(kiosk.organization_id, req.body, {
          requestId: req.body.request_id,
          clientAddress: req.ip,
        });
        return reply.code(201).send({ slip });
      },
    );

    app.get(
      '/queue/visits/:visitId/slip',
      {
        onRequest: counter,
        schema: {
          params: visitParams,
          querystring: organizationScopeQuerySchema,
          response: { 200: visitSlipResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        return { slip: await queue.line.slip(organizationId, req.params.visitId) };
      },
    );

    app.get(
      '/follow/:code',
      {
        schema: {
          params: codeParams,
          response: { 200: followResponseSchema, ...errorResponses(400, 404, 429) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const code = normalizeFollowCode(req.params.code);
        if (!code) {
          throw new AppError(
            400,
            'INVALID_FOLLOW_CODE',
            'A code is 8 letters and digits, as printed on the ticket.',
          );
        }
        await limits.enforce(reply, [{ limit: 'follow-code-lookups-per-address', of: req.ip }]);
        // Yesterday's and today's visits (by UTC date: a day late at most anywhere in Africa).
        const since = new Date(clock.now().getTime() - DAY_MS).toISOString().slice(0, 10);
        const visit = await visitOfFollowCode(db, code, since);
        if (!visit) {
          throw new AppError(
            404,
            'FOLLOW_CODE_NOT_FOUND',
            'No ticket of today or yesterday has this code. Check it on your ticket.',
          );
        }
        return { visit_id: visit.id, key: turns.keyFor(visit.id) };
      },
    );
  };
}
