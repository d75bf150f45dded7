import { Redis, type RedisOptions } from 'ioredis';

export interface RedisSettings {
  url: string;
  /** Prepended to every key and channel: one Redis may serve several deployments. */
  prefix: string;
}

interface Log {
  warn(obj: object, message: string): void;
  info(obj: object, message: string): void;
}

/**
 * The two connections a process keeps to Redis (decision 033): one for commands (counters,
 * publishes, the relay's lease) and one in subscriber mode. Nothing durable lives in Redis:
 * losing it costs counts in flight and messages, which the callers make up for.
 */
export interface RedisLink {
  /** Fails at once while Redis is away (no offline queue): callers fall back, never wait. */
  commands: Redis;
  subscriber: Redis;
  prefix: string;
  close(): Promise<void>;
}

/**
 * How long a command may take before its caller falls back (a frozen Redis): as long as a
 * stalled database is given (DATABASE_STALL_TIMEOUT_MS), since a busy process's own event
 * loop lag counts too, and a count given up on may still have been made in Redis.
 */
const COMMAND_TIMEOUT_MS = 1500;
/** Reconnect every this long at most while Redis is away. */
const MAX_RECONNECT_DELAY_MS = 2000;

/** host:port of the URL, never its password. */
export function redisServerOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '6379'}`;
  } catch {
    return '(unparsable REDIS_URL)';
  }
}

export async function openRedis(settings: RedisSettings, log: Log): Promise<RedisLink> {
  const server = redisServerOf(settings.url);
  const common: RedisOptions = {
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, MAX_RECONNECT_DELAY_MS),
    // ioredis would print the error of every failed reconnect without this handler's say.
    showFriendlyErrorStack: false,
  };
  const commands = new Redis(settings.url, {
    ...common,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  // Subscriptions are made again by RedisFanout once the connection is ready.
  const subscriber = new Redis(settings.url, { ...common, autoResubscribe: false });
  for (const [name, client] of [
    ['commands', commands],
    ['subscriber', subscriber],
  ] as const) {
    let away = false;
    client.on('error', (err: Error & { code?: string }) => {
      if (away) return;
      away = true;
      log.warn(
        { redis: server, connection: name, code: err.code ?? err.message },
        'Redis unreachable',
      );
    });
    client.on('ready', () => {
      if (!away) return;
      away = false;
      log.info({ redis: server, connection: name }, 'Redis reachable again');
    });
  }
  // A process starts even while Redis is away (bookings must not depend on it): it waits a
  // moment for it, then goes on with its fallbacks while ioredis keeps reconnecting.
  await Promise.all(
    [commands, subscriber].map(
      (client) =>
        new Promise<void>((resolve) => {
          if (client.status === 'ready') return resolve();
          // Refused at once (nothing listening): no need to wait for the timeout.
          const done = () => {
            clearTimeout(timer);
            client.off('ready', done);
            client.off('error', done);
            resolve();
          };
          const timer = setTimeout(done, 2000);
          client.once('ready', done);
          client.once('error', done);
        }),
    ),
  );
  return {
    commands,
    subscriber,
    prefix: settings.prefix,
    async close() {
      await Promise.all(
        [commands, subscriber].map((client) =>
          client.status === 'ready'
            ? client.quit().then(
                () => undefined,
                () => client.disconnect(),
              )
            : client.disconnect(),
        ),
      );
    },
  };
}
