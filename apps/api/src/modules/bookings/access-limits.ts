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
 * one count). Phone digits (10,000 possibilities) are counted BEFORE they are checked, one
 * atomic upsert per counter, so guesses sent in parallel cannot all pass a read made while
 * the others are checked: of N at once, at most the limit are ever compared. They are
 * limited per code, hourly and daily, and per client address. A right answer takes back
 * the code's counts only: were the address's count taken back too, a right answer on one's
 * own booking would reset the address's budget between guesses at other codes.
 * A key (256 bits, not guessable) is checked first and only a wrong one counts, against the
 * address: the customer who holds the link is never refused because strangers behind the
 * same carrier address spent a budget. An unknown code is counted like a known one, so a
 * 429 tells nothing about whether a code exists.
 */
export function accessLimits(db: Db, clock: Clock, config: LimitsConfig['ticketAccess']) {
  const addressCounter = (ip: string) => ({
    key: `ticket-access:ip:${clientAddressKey(ip)}`,
    max: config.perIpHour,
    ms: HOUR,
  });
  const hit = async (reply: FastifyReply, counter: ReturnType<typeof addressCounter>, at: Date) => {
    const counted = await hitCounter(db, counter.key, counter.ms, at);
    if (counted.count > counter.max) {
      reply.header('retry-after', Math.max(1, Math.ceil(counted.ttlMs / 1000)));
      throw new AppError(
        429,
        'TOO_MANY_ACCESS_ATTEMPTS',
        'Too many tries for this ticket. Wait a while, or open the link from your SMS or e-mail.',
      );
    }
  };
  return {
    /** Counts a try of phone digits before it is checked; `succeeded` gives the code's back. */
    async reserveDigits(
      reply: FastifyReply,
      attempt: { code: string; ip: string },
    ): Promise<{ succeeded(): Promise<void> }> {
      const at = clock.now();
      const perCode = [
        { key: `ticket-access:code:${attempt.code}`, max: config.perCodeHour, ms: HOUR },
        { key: `ticket-access:code-day:${attempt.code}`, max: config.perCodeDay, ms: DAY },
      ];
      await hit(reply, addressCounter(attempt.ip), at);
      const counted: typeof perCode = [];
      for (const counter of perCode) {
        counted.push(counter);
        await hit(reply, counter, at);
      }
      return {
        async succeeded() {
          for (const { key, ms } of counted) await releaseCounter(db, key, ms, at);
        },
      };
    },

    /** Counts a wrong key against the client address (429 once its budget is spent). */
    async wrongKey(reply: FastifyReply, ip: string): Promise<void> {
      await hit(reply, addressCounter(ip), clock.now());
    },
  };
}
