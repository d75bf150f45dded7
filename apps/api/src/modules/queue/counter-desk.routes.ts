import {
  type CounterAction,
  callVisitRequestSchema,
  counterActionResponseSchema,
  idSchema,
  queueVisitResponseSchema,
  transferRequestSchema,
  withFieldCodes,
} from '@qless/contract';
import type { onRequestHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../core/access/auth-guard.js';
import { errorResponses } from '../../errors.js';
import type { QueueService } from './queue.service.js';

const counterParams = withFieldCodes(z.object({ id: idSchema }), { id: 'INVALID_ID' });
const writeErrors = errorResponses(400, 401, 403, 404, 409, 413, 415);
/** Queue routes write visits and counters only: no public catalogue answer reads them. */
const QUEUE_WRITE = { touchesCatalog: false } as const;

/**
 * The counter's acts (staff, admins, operators): its state, Call next and the acts on the
 * visit it holds, a transfer (to a service or a named counter), a call out of turn with its
 * reason (decision 139), Undo, and a no-show put back in line.
 */
export function counterDeskRoutes(
  queue: QueueService,
  counter: onRequestHookHandler,
): FastifyPluginAsyncZod {
  return async (app) => {
    for (const [path, state] of [
      ['open', 'open'],
      ['pause', 'paused'],
      ['close', 'closed'],
    ] as const) {
      app.post(
        `/queue/counters/:id/${path}`,
        {
          onRequest: counter,
          config: QUEUE_WRITE,
          schema: {
            params: counterParams,
            response: { 200: counterActionResponseSchema, ...writeErrors },
          },
        },
        async (req, reply) => {
          reply.header('cache-control', 'no-store');
          return queue.desk.counterState(authOf(req), req.params.id, state);
        },
      );
    }

    const actions: [string, Exclude<CounterAction, 'transfer' | 'call_visit'>][] = [
      ['call-next', 'call_next'],
      ['recall', 'recall'],
      ['start', 'start'],
      ['done', 'done'],
      ['no-show', 'no_show'],
    ];
    for (const [path, action] of actions) {
      app.post(
        `/queue/counters/:id/${path}`,
        {
          onRequest: counter,
          config: QUEUE_WRITE,
          schema: {
            params: counterParams,
            response: { 200: counterActionResponseSchema, ...writeErrors },
          },
        },
        async (req, reply) => {
          reply.header('cache-control', 'no-store');
          return queue.desk.act(authOf(req), req.params.id, action);
        },
      );
    }

    app.post(
      '/queue/counters/:id/transfer',
      {
        onRequest: counter,
        config: QUEUE_WRITE,
        schema: {
          params: counterParams,
          body: transferRequestSchema,
          response: { 200: counterActionResponseSchema, ...writeErrors },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        return queue.desk.act(authOf(req), req.params.id, 'transfer', { transfer: req.body });
      },
    );

    // A chosen visitor called out of turn, with a reason kept on the record (decision 139).
    app.post(
      '/queue/counters/:id/call-visit',
      {
        onRequest: counter,
        config: {
          ...QUEUE_WRITE,
          auditAction: 'queue.call_out_of_order',
          auditBody: ['visit_id', 'reason'],
        },
        schema: {
          params: counterParams,
          body: callVisitRequestSchema,
          response: { 200: counterActionResponseSchema, ...writeErrors },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        return queue.desk.act(authOf(req), req.params.id, 'call_visit', { chosen: req.body });
      },
    );

    // The counter's last call, no-show, done or transfer taken back (decision 118).
    app.post(
      '/queue/counters/:id/undo',
      {
        onRequest: counter,
        config: QUEUE_WRITE,
        schema: {
          params: counterParams,
          response: { 200: counterActionResponseSchema, ...writeErrors },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        return queue.desk.undo(authOf(req), req.params.id);
      },
    );

    // A no-show of today back in line at their old place.
    app.post(
      '/queue/visits/:id/return',
      {
        onRequest: counter,
        config: QUEUE_WRITE,
        schema: {
          params: counterParams,
          response: { 200: queueVisitResponseSchema, ...writeErrors },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        return { visit: await queue.desk.putBack(authOf(req), req.params.id) };
      },
    );
  };
}
