import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Clock } from '../../clock.js';
import type { AuthConfig } from '../../config.js';
import { hitCounter, releaseCounter } from '../../db/rate-counters.js';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { clientAddressKey } from '../platform/client-address.js';

/**
 * Failed sign-ins are counted per account and per client address in the database, so the
 * limits hold in sum over every process. Each attempt is counted BEFORE its password is
 * checked (one atomic upsert per key), so guesses sent in parallel cannot all pass a read
 * of the counter made while the others are still being verified; an attempt that succeeds
 * takes its count back. A counter full of someone else's failures still blocks, which is
 * the point of a per-account limit.
 */
export function loginLimits(db: Db, config: AuthConfig, clock: Clock) {
  const windowMs = config.loginWindowMinutes * 60_000;
  const keys = (email: string, ip: string) => [
    // Hashed: an e-mail may be longer than a counter key, and need not sit in that table.
    {
      key: `login-fail:account:${createHash('sha256').update(email).digest('hex')}`,
      max: config.loginFailuresPerAccount,
    },
    { key: `login-fail:ip:${clientAddressKey(ip)}`, max: config.loginFailuresPerIp },
  ];
  return {
    /**
     * Counts one attempt on the account and the address; 429 when either is over its
     * limit. Call `succeeded` on the answer when the password was right.
     */
    async reserve(
      reply: FastifyReply,
      email: string,
      ip: string,
    ): Promise<{ succeeded(): Promise<void> }> {
      const at = clock.now();
      const counted = keys(email, ip);
      for (const { key, max } of counted) {
        const hit = await hitCounter(db, key, windowMs, at);
        if (hit.count > max) {
          reply.header('retry-after', Math.max(1, Math.ceil(hit.ttlMs / 1000)));
          throw new AppError(
            429,
            'TOO_MANY_LOGIN_ATTEMPTS',
            'Too many failed sign-ins. Wait a few minutes, or reset your password.',
          );
        }
      }
      return {
        async succeeded() {
          for (const { key } of counted) await releaseCounter(db, key, windowMs, at);
        },
      };
    },
  };
}
