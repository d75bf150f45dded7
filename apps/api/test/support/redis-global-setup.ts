import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { MissingPrerequisite, shown } from './preflight.js';

/**
 * The `api-redis` project's Redis (decision 033): a prefix for this run, whose keys are
 * deleted at the end (rate counters, relay leases; pub/sub leaves nothing).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = project.config.provide?.redisUrl;
  if (!url) throw new Error('api-redis: no redisUrl provided');
  const run = `qt:${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new MissingPrerequisite(
      `npm test needs Redis at ${shown(url)} for the api-redis project (${err instanceof Error ? err.message : String(err)}): start it (redis-server --daemonize yes --bind 127.0.0.1) or point TEST_REDIS_URL at one.`,
    );
  }
  project.provide('redisRun', run);
  return async () => {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${run}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
    await redis.quit();
  };
}
