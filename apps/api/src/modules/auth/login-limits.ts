import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Clock } from '../../clock.js';
import type { AuthConfig } from '../../config.js';
import { hitCounter, readCounter } from '../../db/rate-counters.js';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { clientAddressKey } from '../platform/client-address.js';

/**
 * Failed sign-ins are counted per account and per client address in the database, so the
 * limits hold in sum over every process. Only failures count: a counter full of someone
 * else's failures still blocks, which is the point of a per-account limit.
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
    async check(reply: FastifyReply, email: string, ip: string): Promise<void> {
      const now = clock.now();
      for (const { key, max } of keys(email, ip)) {
        const counter = await readCounter(db, key, windowMs, now);
        if (counter.count >= max) {
          reply.header('retry-after', Math.max(1, Math.ceil(counter.ttlMs / 1000)));
          throw new AppError(
            429,
            'TOO_MANY_LOGIN_ATTEMPTS',
            'Too many failed sign-ins. Wait a few minutes, or reset your password.',
          );
        }
      }
    },
    async fail(email: string, ip: string): Promise<void> {
      const now = clock.now();
      for (const { key } of keys(email, ip)) await hitCounter(db, key, windowMs, now);
    },
  };
}
