import type { WebSocket } from '@fastify/websocket';
import {
  boardCreatedResponseSchema,
  boardListResponseSchema,
  boardRequestSchema,
  boardResponseSchema,
  boardSnapshotSchema,
  type ErrorBody,
  idSchema,
  organizationScopeQuerySchema,
  VISIT_KEY_HEADER,
  visitFeedbackLinkResponseSchema,
  visitKeyOptionalQuerySchema,
  visitKeyQuerySchema,
  visitLeaveRequestSchema,
  visitTurnResponseSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import type { BookingAccess } from '../../core/access/booking-access.js';
import { ROLES_ADMIN, targetOrganization } from '../../core/access/roles.js';
import { opensVisitTurn, type VisitAccess } from '../../core/access/visit-access.js';
import { AppError, errorResponses } from '../../errors.js';
import { closeWithError, type LiveSockets } from '../../limits/live-sockets.js';
import {
  findBoardByToken,
  listBoards,
  newHallToken,
  revokeHallLink,
  toBoard,
} from './hall-links.js';
import { notifyQueueChanged } from './queue-events.js';
import type { LiveSink, QueueHub } from './queue-hub.js';
import { readBoard, readVisitTurn } from './queue-live.js';

const boardIdParams = withFieldCodes(z.object({ boardId: idSchema }), { boardId: 'INVALID_ID' });
const tokenParams = withFieldCodes(z.object({ token: z.string().max(100) }), {
  token: 'BOARD_NOT_FOUND',
});
const visitParams = withFieldCodes(z.object({ visitId: idSchema }), { visitId: 'INVALID_ID' });

const boardNotFound = () =>
  new AppError(404, 'BOARD_NOT_FOUND', 'This board link does not exist or was revoked.');
const keyRefused = () =>
  new AppError(403, 'INVALID_VISIT_KEY', "This link's key does not open this visit.");

function sinkOf(socket: WebSocket): LiveSink {
  return {
    send(text) {
      if (socket.readyState === socket.OPEN) socket.send(text);
    },
    fail(code, body) {
      if (socket.readyState === socket.OPEN) closeWithError(socket, code, body);
    },
    end() {
      if (socket.readyState === socket.OPEN) socket.close(1000, 'ended');
    },
  };
}

function refuse(reply: FastifyReply, status: number, body: ErrorBody) {
  return reply.status(status).header('cache-control', 'no-store').send(body);
}

/**
 * The queue's live routes: board links (admin), the board on the
 * wall and a visitor's turn (public, read-only: a board token or a visit key opens one read
 * and never a session), by a poll and by a socket fed by the QueueHub.
 */
export function queueLiveRoutes(
  { db, clock, guard }: AppDeps,
  hub: QueueHub,
  sockets: LiveSockets,
  access: { bookings: BookingAccess; visits: VisitAccess },
): FastifyPluginAsyncZod {
  const admin = guard.require(ROLES_ADMIN);
  // What preValidation found, for the socket handler that follows it.
  const opened = new WeakMap<FastifyRequest, { organizationId: string; id: string }>();

  /** The visit a key opens; the same refusal whether or not the visit exists. */
  /**
   * The visit's key from its header (the web app, decision 124), else from an older client's
   * `?key=`; neither, or a malformed one: 400, as the query's schema answers.
   */
  function visitKeyOf(req: { headers: FastifyRequest['headers']; query: { key?: string } }) {
    const header = req.headers[VISIT_KEY_HEADER];
    const key = typeof header === 'string' && header !== '' ? header : req.query.key;
    if (!key || key.length < 10 || key.length > 200) {
      throw new AppError(400, 'INVALID_VISIT_KEY', "The visit's key is missing or malformed.");
    }
    return key;
  }

  async function authorizeVisit(visitId: string, key: string | undefined) {
    const row = await db
      .selectFrom('visits')
      .select(['id', 'organization_id', 'booking_id'])
      .where('id', '=', visitId)
      .executeTakeFirst();
    // Checked for a visit that does not exist too: the refusal says nothing of existence.
    if (!opensVisitTurn({ id: visitId, booking_id: row?.booking_id ?? null }, key, access)) {
      throw keyRefused();
    }
    if (!row) throw new AppError(404, 'VISIT_NOT_FOUND', 'No such visit.');
    return row;
  }

  return async (app) => {
    app.get(
      '/queue/boards',
      {
        onRequest: admin,
        schema: {
          querystring: organizationScopeQuerySchema,
          response: { 200: boardListResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        return { boards: (await listBoards(db, organizationId)).map(toBoard) };
      },
    );

    app.post(
      '/queue/boards',
      {
        onRequest: admin,
        config: { touchesCatalog: false },
        schema: {
          querystring: organizationScopeQuerySchema,
          body: boardRequestSchema,
          response: {
            201: boardCreatedResponseSchema,
            ...errorResponses(400, 401, 403, 404, 413, 415),
          },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const organizationId = targetOrganization(auth, req.query.organization_id);
        const { token, hash } = newHallToken('board');
        const row = await db
          .insertInto('boards')
          .values({
            organization_id: organizationId,
            name: req.body.name,
            token_hash: hash,
            created_by: auth.user.id,
            created_at: clock.now(),
          })
          .returning(['id', 'name', 'created_at', 'revoked_at'])
          .executeTakeFirstOrThrow();
        // The token is shown this once; only its hash is kept.
        return reply
          .header('cache-control', 'no-store')
          .status(201)
          .send({ board: toBoard(row), token });
      },
    );

    app.delete(
      '/queue/boards/:boardId',
      {
        onRequest: admin,
        config: { touchesCatalog: false },
        schema: {
          params: boardIdParams,
          querystring: organizationScopeQuerySchema,
          response: { 200: boardResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const organizationId = targetOrganization(authOf(req), req.query.organization_id);
        const row = await db.transaction().execute(async (trx) => {
          const board = await revokeHallLink(
            trx,
            'board',
            req.params.boardId,
            organizationId,
            clock.now(),
          );
          // Every process closes the sockets of this board on its next render.
          if (board) await notifyQueueChanged(trx, organizationId);
          return board;
        });
        if (!row) throw boardNotFound();
        return { board: toBoard(row) };
      },
    );

    app.get(
      '/board/:token',
      {
        schema: {
          params: tokenParams,
          response: { 200: boardSnapshotSchema, ...errorResponses(400, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const board = await findBoardByToken(db, req.params.token);
        if (!board) throw boardNotFound();
        return readBoard(await hub.dayOf(board.organization_id), clock.now());
      },
    );

    app.get(
      '/board/:token/socket',
      {
        websocket: true,
        // Refused before the upgrade: a dead link gets a plain 404, not a socket.
        preValidation: async (req, reply) => {
          await sockets.checkOrigin(req, reply);
          if (reply.sent) return;
          const { token } = req.params as { token: string };
          const board = await findBoardByToken(db, token);
          if (!board) {
            return refuse(reply, 404, {
              code: 'BOARD_NOT_FOUND',
              message: 'This board link does not exist or was revoked.',
            });
          }
          opened.set(req, { organizationId: board.organization_id, id: board.id });
        },
      },
      (socket, req) => {
        const board = opened.get(req);
        if (!board || !sockets.admit(socket, req.ip, 'board')) return;
        sockets.keepAlive(socket);
        const stop = hub.followBoard(board.organizationId, board.id, sinkOf(socket));
        socket.on('close', stop);
      },
    );

    app.get(
      '/visits/:visitId',
      {
        schema: {
          params: visitParams,
          querystring: visitKeyOptionalQuerySchema,
          response: { 200: visitTurnResponseSchema, ...errorResponses(400, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const visit = await authorizeVisit(req.params.visitId, visitKeyOf(req));
        const turn = await readVisitTurn(db, await hub.dayOf(visit.organization_id), visit.id);
        if (!turn) throw new AppError(404, 'VISIT_NOT_FOUND', 'No such visit.');
        return { turn };
      },
    );

    app.post(
      '/visits/:visitId/leave',
      {
        config: { touchesCatalog: false },
        schema: {
          params: visitParams,
          body: visitLeaveRequestSchema,
          response: { 200: visitTurnResponseSchema, ...errorResponses(400, 403, 404, 409, 415) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const visit = await authorizeVisit(req.params.visitId, req.body.key);
        return { turn: await app.queue.line.leave(visit.id) };
      },
    );

    app.get(
      '/visits/:visitId/feedbackLink',
      {
        schema: {
          params: visitParams,
          querystring: visitKeyOptionalQuerySchema,
          response: { 200: visitFeedbackLinkResponseSchema, ...errorResponses(400, 403, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const visit = await authorizeVisit(req.params.visitId, visitKeyOf(req));
        return { token: await app.queue.line.feedbackToken(visit.id) };
      },
    );

    app.get(
      '/visits/:visitId/turnSocket',
      {
        websocket: true,
        preValidation: async (req, reply) => {
          await sockets.checkOrigin(req, reply);
          if (reply.sent) return;
          const params = visitParams.safeParse(req.params);
          const query = visitKeyQuerySchema.safeParse(req.query);
          if (!params.success) {
            return refuse(reply, 400, { code: 'INVALID_ID', message: 'Malformed visit id.' });
          }
          if (!query.success) throw keyRefused();
          const visit = await authorizeVisit(params.data.visitId, query.data.key);
          opened.set(req, { organizationId: visit.organization_id, id: visit.id });
        },
      },
      (socket, req) => {
        const visit = opened.get(req);
        if (!visit || !sockets.admit(socket, req.ip, 'turn')) return;
        sockets.keepAlive(socket);
        const stop = hub.followTurn(visit.organizationId, visit.id, sinkOf(socket));
        socket.on('close', stop);
      },
    );
  };
}
