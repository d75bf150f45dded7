import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { hitCounter } from '../../db/rate-counters.js';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../errors.js';

export interface Limit {
  /** What is counted: a route and a client, or a route for everyone. */
  key: string;
  max: number;
  windowMs: number;
}

/**
 * Counts a request against each limit in order, in the database (shared by every process),
 * and answers 429 at the first one exceeded; later limits are not counted then, so one
 * client over its own limit does not use up everyone's.
 */
export async function enforceLimits(
  db: Kysely<DB>,
  clock: Clock,
  reply: FastifyReply,
  limits: Limit[],
): Promise<void> {
  const now = clock.now();
  for (const limit of limits) {
    const hit = await hitCounter(db, limit.key, limit.windowMs, now);
    if (hit.count > limit.max) {
      reply.header('retry-after', Math.max(1, Math.ceil(hit.ttlMs / 1000)));
      throw new AppError(
        429,
        'RATE_LIMITED',
        'Too many requests. Please wait a moment and try again.',
      );
    }
  }
}
