import {
  feedbackInfoResponseSchema,
  feedbackParamsSchema,
  feedbackRequestSchema,
  feedbackResponseSchema,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../errors.js';
import type { Limiter } from '../../limits/limiter.js';
import type { FeedbackService } from './feedback.service.js';

/** Feedback writes one table that no public catalogue answer reads. */
const FEEDBACK_WRITE = { touchesCatalog: false } as const;

/**
 * A word after the visit: public routes whose credential is the SMS
 * link's token (`/feedback/{token}`; request logs withhold it).
 */
export function feedbackRoutes(feedback: FeedbackService, limits: Limiter): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/feedback/:token',
      {
        schema: {
          params: feedbackParamsSchema,
          response: { 200: feedbackInfoResponseSchema, ...errorResponses(400, 404, 410) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        return feedback.info(req.params.token);
      },
    );

    app.post(
      '/feedback/:token',
      {
        config: FEEDBACK_WRITE,
        schema: {
          params: feedbackParamsSchema,
          body: feedbackRequestSchema,
          response: {
            201: feedbackResponseSchema,
            ...errorResponses(400, 404, 409, 410, 413, 415, 429),
          },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        // A forged or expired link is refused before anything is counted; then counted
        // before the write, so that answers sent at once cannot all pass.
        const visit = await feedback.visitOf(req.params.token);
        await limits.enforce(reply, [{ limit: 'feedback-answers-per-address', of: req.ip }]);
        await feedback.give(visit, { rating: req.body.rating, comment: req.body.comment ?? null });
        return reply.code(201).send({ given: true as const });
      },
    );
  };
}
