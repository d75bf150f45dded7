import { createHash } from 'node:crypto';
import { expect, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Vitest project `api-redis` (decision 033): every app of its files uses this Redis. */
    redisUrl: string;
    /** This run's key prefix; its global setup deletes the run's keys at the end. */
    redisRun: string;
  }
}

/**
 * REDIS_URL and REDIS_PREFIX for an app of the `api-redis` project, nothing elsewhere. The
 * prefix is the run's and the file's: two apps of one file (two processes) share it, files
 * running side by side never meet (keys and pub/sub channels alike).
 */
export function redisTestEnv(): Record<string, string> {
  let url: string | undefined;
  let run: string | undefined;
  try {
    url = inject('redisUrl');
    run = inject('redisRun');
  } catch {
    return {};
  }
  if (!url || !run) return {};
  const file = expect.getState().testPath ?? 'unknown';
  const tag = createHash('sha256').update(file).digest('hex').slice(0, 10);
  return { REDIS_URL: url, REDIS_PREFIX: `${run}${tag}:` };
}
