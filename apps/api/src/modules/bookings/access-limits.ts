import type { FastifyReply } from 'fastify';
import type { Clock } from '../../clock.js';
import type { LimitsConfig } from '../../config.js';
import { hitCounter, releaseCounter } from '../../db/rate-counters.js';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { clientAddressKey } from '../platform/client-address.js';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

/**
 * Guesses at POST /tickets/{code}/access, counted in the database (every process adds to
 * one count). Each attempt is counted BEFORE it is checked, one atomic upsert per counter,
 * so guesses sent in parallel cannot all pass a read made while the others are checked: of
 * N at once, at most the limit are ever compared. A right answer takes its counts back.
 * Phone digits (10,000 possibilities) are limited per code, hourly and daily, and per client
 * address; a key (256 bits, not guessable) only per client address, so strangers spending a
 * code's budget never lock out the customer who holds the link. An unknown code is counted
 * like a known one, so a 429 tells nothing about whether a code exists.
 */
export function accessLimits(db: Db, clock: Clock, config: LimitsConfig['ticketAccess']) {
  return {
    async reserve(
      reply: FastifyReply,
      attempt: { code: string; ip: string; by: 'key' | 'digits' },
    ): Promise<{ succeeded(): Promise<void> }> {
      const at = clock.now();
      const counters = [
        {
          key: `ticket-access:ip:${clientAddressKey(attempt.ip)}`,
          max: config.perIpHour,
          ms: HOUR,
        },
      ];
      if (attempt.by === 'digits') {
        counters.push(
          { key: `ticket-access:code:${attempt.code}`, max: config.perCodeHour, ms: HOUR },
          { key: `ticket-access:code-day:${attempt.code}`, max: config.perCodeDay, ms: DAY },
        );
      }
      const counted: typeof counters = [];
      for (const counter of counters) {
        const hit = await hitCounter(db, counter.key, counter.ms, at);
        counted.push(counter);
        if (hit.count > counter.max) {
          reply.header('retry-after', Math.max(1, Math.ceil(hit.ttlMs / 1000)));
          throw new AppError(
            429,
            'TOO_MANY_ACCESS_ATTEMPTS',
            'Too many tries for this ticket. Wait a while, or open the link from your SMS or e-mail.',
          );
        }
      }
      return {
        async succeeded() {
          for (const { key, ms } of counted) await releaseCounter(db, key, ms, at);
        },
      };
    },
  };
}
