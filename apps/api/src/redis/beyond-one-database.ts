import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Fanout } from '../fanout.js';
import { type CounterStore, databaseCounters } from '../limits/counter-store.js';
import { READ_CACHE_CHANNEL } from '../modules/catalog/catalog.module.js';
import { PAYMENT_CHANNEL } from '../modules/payments/payments.module.js';
import { QUEUE_CHANNEL } from '../modules/queue/queue.module.js';
import { redisCounters } from './redis-counters.js';
import { NotifyRelay, RedisFanout } from './redis-fanout.js';
import { openRedis, redisServerOf } from './redis-link.js';

/** Every NOTIFY channel the processes listen to, relayed to Redis. */
const CHANNELS = [PAYMENT_CHANNEL, QUEUE_CHANNEL, READ_CACHE_CHANNEL];

/** A failing Redis is logged once per this long, not once per request. */
const FALLBACK_LOG_EVERY_MS = 30_000;

export interface BeyondOneDatabase {
  counters: CounterStore;
  fanout: Fanout;
  /** Starts the relay candidate (after the listeners are in place). */
  start(): Promise<void>;
  relay: NotifyRelay;
}

/**
 * Rate counters and fan-out through Redis when REDIS_URL is set on PostgreSQL (decision
 * 033); null otherwise, and everything stays in the database. Closed with the app.
 */
export async function openBeyondOneDatabase(options: {
  config: Config;
  database: Database;
  log: FastifyInstance['log'];
  app: FastifyInstance;
}): Promise<BeyondOneDatabase | null> {
  const { config, database, log, app } = options;
  if (!config.redis) return null;
  if (database.engine !== 'postgres') {
    log.warn(
      'REDIS_URL is ignored on the embedded database: its one process counts and fans out alone',
    );
    return null;
  }
  const link = await openRedis(config.redis, log);
  log.info(
    { redis: redisServerOf(config.redis.url), ready: link.commands.status === 'ready' },
    'rate counters and fan-out through Redis (decision 033)',
  );
  let lastWarned = Number.NEGATIVE_INFINITY;
  const counters = redisCounters(link, databaseCounters(database.db), (err) => {
    const now = performance.now();
    if (now - lastWarned < FALLBACK_LOG_EVERY_MS) return;
    lastWarned = now;
    const code = (err as { code?: unknown; message?: unknown }).code ?? (err as Error).message;
    log.warn({ code }, 'Redis failed a rate count: counting in the database meanwhile');
  });
  const fanout = new RedisFanout(link);
  const relay = new NotifyRelay({ link, database, channels: CHANNELS, log });
  app.addHook('onClose', async () => {
    await relay.stop();
    await link.close();
  });
  return { counters, fanout, relay, start: () => relay.start() };
}
