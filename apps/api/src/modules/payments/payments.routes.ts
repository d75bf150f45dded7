import {
  BOOKING_KEY_HEADER,
  CALLBACK_OUTCOMES,
  type ErrorBody,
  idSchema,
  paymentInitiateRequestSchema,
  paymentResponseSchema,
  paymentStatusMessageSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { AppError, errorResponses } from '../../errors.js';
import { clientAddressKey } from '../../limits/client-address.js';
import { routeLimit } from '../../limits/declarations.js';
import {
  closeWithError as closeSocketWithError,
  type LiveSockets,
} from '../../limits/live-sockets.js';
import { cancelPendingPayment } from './payment-cancel.js';
import type { PaymentEvents } from './payment-events.js';
import { readPaymentStatus } from './payment-status.js';
import type { Payments } from './payments.module.js';

const paymentParams = withFieldCodes(z.object({ paymentId: idSchema }), {
  paymentId: 'INVALID_ID',
});

function callbackRejected(reason: 'INVALID_SIGNATURE' | 'MALFORMED' | 'INVALID_ENCODING') {
  if (reason === 'INVALID_SIGNATURE') {
    return new AppError(401, 'INVALID_SIGNATURE', 'The callback signature is missing or invalid.');
  }
  if (reason === 'INVALID_ENCODING') {
    return new AppError(400, 'INVALID_ENCODING', 'The callback holds text that is not Unicode.');
  }
  return new AppError(400, 'VALIDATION_FAILED', 'The callback is malformed.');
}

export function paymentsRoutes(
  deps: AppDeps,
  payments: Payments,
  events: PaymentEvents,
  sockets: LiveSockets,
): FastifyPluginAsyncZod {
  const statusOf = (paymentId: string) => readPaymentStatus(deps.db, payments.signer, paymentId);
  return async (app) => {
    app.post(
      '/payment/initiate',
      {
        config: { rateLimit: routeLimit('payment-starts', deps.config) },
        schema: {
          body: paymentInitiateRequestSchema,
          response: {
            200: paymentResponseSchema,
            201: paymentResponseSchema,
            ...errorResponses(400, 402, 404, 409, 413, 415, 429, 502),
          },
        },
      },
      async (req, reply) => {
        const { payment, created } = await payments.initiation.initiate(req.body, {
          clientAddress: clientAddressKey(req.ip),
        });
        return reply
          .header('cache-control', 'no-store')
          .status(created ? 201 : 200)
          .send({ payment });
      },
    );

    app.get(
      '/payment/:paymentId',
      {
        schema: {
          params: paymentParams,
          response: { 200: paymentStatusMessageSchema, ...errorResponses(400, 404) },
        },
      },
      async (req, reply) => {
        // The answer names the customer and carries the ticket's token: no cache may keep it.
        reply.header('cache-control', 'no-store');
        const message = await statusOf(req.params.paymentId);
        if (!message) throw new AppError(404, 'PAYMENT_NOT_FOUND', 'No such payment.');
        return message;
      },
    );

    // The customer gives up a pending payment; the booking's key (a header) says it is theirs.
    app.post(
      '/payment/:paymentId/cancel',
      {
        schema: {
          params: paymentParams,
          response: {
            200: paymentStatusMessageSchema,
            ...errorResponses(400, 403, 404, 409, 413, 415),
          },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const key = req.headers[BOOKING_KEY_HEADER];
        return cancelPendingPayment(
          { db: deps.db, ...payments },
          req.params.paymentId,
          typeof key === 'string' ? key : undefined,
        );
      },
    );

    // Providers call back with GET query parameters or a JSON / form body.
    app.register(async (callbacks) => {
      callbacks.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 16 * 1024 },
        (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      callbacks.withTypeProvider<ZodTypeProvider>().route({
        method: ['GET', 'POST'],
        // Only the configured provider has a callback route; any other name is a 404.
        url: `/payment/callback/${payments.provider.name}`,
        schema: {
          response: {
            200: z.object({ ok: z.literal(true), outcome: z.enum(CALLBACK_OUTCOMES) }),
            ...errorResponses(400, 401, 413, 415, 429, 503),
          },
        },
        config: { rateLimit: routeLimit('payment-callbacks', deps.config), writes: true },
        handler: async (req) => {
          const result = await payments.callbacks.handle(
            {
              query: (req.query ?? {}) as Record<string, unknown>,
              body: req.body,
              headers: req.headers,
            },
            req.ip,
          );
          if (!result.accepted) throw callbackRejected(result.reason);
          if (result.outcome === 'unverified' || result.outcome === 'awaiting_reference') {
            // Not applied: the provider retries later, and the reconciler asks it meanwhile.
            throw new AppError(
              503,
              'SERVICE_UNAVAILABLE',
              'The payment could not be confirmed with the provider yet. Retry later.',
            );
          }
          return { ok: true as const, outcome: result.outcome };
        },
      });
    });

    app.get(
      '/payment/:paymentId/statusSocket',
      { websocket: true, preValidation: sockets.checkOrigin },
      async (socket, req) => {
        const { paymentId } = req.params as { paymentId: string };
        const closeWithError = (code: number, body: ErrorBody) =>
          closeSocketWithError(socket, code, body);
        if (!sockets.admit(socket, req.ip)) return;
        if (!idSchema.safeParse(paymentId).success) {
          return closeWithError(4400, { code: 'INVALID_ID', message: 'Malformed payment id.' });
        }
        let last = '';
        let closed = false;
        let sending = Promise.resolve();
        const push = () => {
          sending = sending
            .then(async () => {
              if (closed) return;
              const message = await statusOf(paymentId);
              if (closed) return;
              if (!message) {
                closed = true;
                return closeWithError(4404, {
                  code: 'PAYMENT_NOT_FOUND',
                  message: 'No such payment.',
                });
              }
              const text = JSON.stringify(message);
              if (text !== last) {
                last = text;
                socket.send(text);
              }
              if (message.status !== 'PENDING') {
                closed = true;
                socket.close(1000, message.status);
              }
            })
            .catch((err: unknown) => {
              req.log.error({ err }, 'status socket push failed');
            });
        };
        // Subscribe before the first read so no change can fall between them.
        const unsubscribe = events.subscribe(paymentId, push);
        // Safety net should a notification be lost: re-read now and then while pending.
        const poll = setInterval(push, 10_000);
        poll.unref();
        socket.on('close', () => {
          closed = true;
          clearInterval(poll);
          unsubscribe();
        });
        push();
      },
    );
  };
}
