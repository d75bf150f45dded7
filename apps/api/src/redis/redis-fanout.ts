import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import type { Fanout } from '../fanout.js';
import type { RedisLink } from './redis-link.js';

/**
 * Sent by the relay when its LISTEN connection dropped or it stops relaying: no NOTIFY
 * payload can hold a NUL, so it cannot be mistaken for one. Listeners are told `onLost`.
 */
export const RELAY_LOST = '\u0000lost';

interface Handler {
  onPayload: (payload: string) => void;
  onLost: (() => void) | undefined;
}

/**
 * Fan-out through Redis pub/sub (decision 033): each process subscribes on one connection;
 * the messages are the database's own notifications, forwarded by one relay (below), so a
 * message still exists only once its transaction committed, in commit order.
 *
 * The subscriber connection lost: every listener is told (`onLost`) and, once Redis is
 * back and the channels subscribed again, gets an empty payload (re-read everything).
 * Meanwhile each falls back on its own safety net: payment sockets poll every 10 s, queue
 * rooms re-render every 30 s and keep no day, the read cache serves nothing from memory.
 */
export class RedisFanout implements Fanout {
  private readonly handlers = new Map<string, Set<Handler>>();
  /** True from a loss until the channels are subscribed again. */
  private lost = false;

  constructor(private readonly link: RedisLink) {
    const { subscriber } = link;
    subscriber.on('message', (channel: string, payload: string) => {
      for (const handler of this.handlers.get(channel) ?? []) {
        if (payload === RELAY_LOST) handler.onLost?.();
        else handler.onPayload(payload);
      }
    });
    subscriber.on('close', () => this.markLost());
    subscriber.on('ready', () => void this.resubscribe());
  }

  async listen(
    channel: string,
    onPayload: (payload: string) => void,
    onLost?: () => void,
  ): Promise<() => Promise<void>> {
    const full = this.link.prefix + channel;
    let set = this.handlers.get(full);
    if (!set) {
      set = new Set();
      this.handlers.set(full, set);
    }
    const handler: Handler = { onPayload, onLost };
    set.add(handler);
    const { subscriber } = this.link;
    if (subscriber.status === 'ready') {
      await subscriber.subscribe(full).catch(() => this.markLost());
    } else {
      // Not hearing yet: told after the caller's start has run; the empty payload follows
      // once Redis is reached.
      this.lost = true;
      setImmediate(() => onLost?.());
    }
    const registered = set;
    return async () => {
      registered.delete(handler);
      if (registered.size > 0 || this.handlers.get(full) !== registered) return;
      this.handlers.delete(full);
      if (subscriber.status === 'ready') await subscriber.unsubscribe(full).catch(() => undefined);
    };
  }

  private markLost(): void {
    if (this.lost) return;
    this.lost = true;
    for (const set of this.handlers.values()) for (const handler of set) handler.onLost?.();
  }

  private async resubscribe(): Promise<void> {
    const channels = [...this.handlers.keys()];
    try {
      if (channels.length > 0) await this.link.subscriber.subscribe(...channels);
    } catch {
      return; // The connection dropped again; its next 'ready' retries.
    }
    if (!this.lost) return;
    this.lost = false;
    for (const set of this.handlers.values()) for (const handler of [...set]) handler.onPayload('');
  }
}

export interface NotifyRelayOptions {
  link: RedisLink;
  database: Database;
  /** The NOTIFY channels forwarded to Redis under the same names (plus the prefix). */
  channels: string[];
  log: { warn(obj: object, message: string): void; info(obj: object, message: string): void };
  /** The relay's lease in Redis; renewed every `renewMs` by its holder. */
  leaseMs?: number;
  /** Also how often the other processes try to take the lease. */
  renewMs?: number;
}

/** Renews the lease only while it is still ours. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * The one process (at a time) that LISTENs to PostgreSQL and publishes each notification to
 * Redis: PostgreSQL then has one listener in all, whatever the number of processes, instead
 * of three per process. Every process runs one; the holder of a lease in Redis relays.
 *
 * Why relay rather than publish from the writers: notifications come from the database's
 * triggers too (migration 010: every catalogue write, psql's included), and NOTIFY is sent
 * only at commit and dropped on rollback, in commit order — which read-your-writes (the read
 * cache's sync token) relies on. Publishing from the application would lose all three.
 *
 * The holder stops (or its LISTEN connection drops): it says so (RELAY_LOST: listeners are
 * told `onLost`); another process takes the lease at its next try and publishes an empty
 * payload on every channel (re-read everything). The holder dies: its lease lapses (leaseMs)
 * first, and the listeners' own safety nets cover the gap (the read cache's heartbeat). Two relays for a moment (a lease that
 * lapsed during a pause) send each message twice, which every listener takes in its stride.
 */
export class NotifyRelay {
  private readonly id = randomUUID();
  private readonly leaseKey: string;
  private readonly leaseMs: number;
  private readonly renewMs: number;
  private held = false;
  private busy = false;
  /** A publish failed: listeners may have missed a message; say so once Redis answers. */
  private dirty = false;
  private unlistens: Array<() => Promise<void>> = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: NotifyRelayOptions) {
    this.leaseKey = `${options.link.prefix}notify-relay`;
    this.leaseMs = options.leaseMs ?? 6000;
    this.renewMs = options.renewMs ?? 2000;
  }

  /** True while this process relays. */
  get relaying(): boolean {
    return this.held;
  }

  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), this.renewMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (!this.held) return;
    await this.stepDown(true);
    // Another process may take over at its next try rather than after the lease lapses.
    await this.options.link.commands
      .eval(RELEASE, 1, this.leaseKey, this.id)
      .catch(() => undefined);
  }

  private async tick(): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    const redis = this.options.link.commands;
    try {
      if (this.held) {
        const renewed = Number(await redis.eval(RENEW, 1, this.leaseKey, this.id, this.leaseMs));
        if (renewed !== 1) {
          this.options.log.warn({}, 'notify relay: lease taken by another process; stepping down');
          // The other relay is live (it announced itself): nothing to tell the listeners.
          await this.stepDown(false);
        } else if (this.dirty) {
          this.dirty = false;
          await this.publishAll('');
        }
      } else if ((await redis.set(this.leaseKey, this.id, 'PX', this.leaseMs, 'NX')) === 'OK') {
        await this.takeOver();
      }
    } catch {
      // Redis away: a holder keeps listening (publishes fail and mark it dirty); whoever
      // holds the lease once Redis is back announces the gap.
      if (this.held) this.dirty = true;
    } finally {
      this.busy = false;
    }
  }

  private async takeOver(): Promise<void> {
    this.held = true;
    const { database, channels } = this.options;
    try {
      for (const channel of channels) {
        this.unlistens.push(
          await database.listen(
            channel,
            (payload) => this.forward(channel, payload),
            // Until the empty payload of its reconnect, everyone misses what is notified.
            () => this.forward(channel, RELAY_LOST),
          ),
        );
      }
    } catch (err) {
      this.options.log.warn({ err }, 'notify relay: cannot LISTEN; giving the lease back');
      await this.stepDown(false);
      await this.options.link.commands
        .eval(RELEASE, 1, this.leaseKey, this.id)
        .catch(() => undefined);
      return;
    }
    if (this.stopped) {
      // Stopped while the listeners were opening: stop() found nothing to close yet.
      await this.stepDown(false);
      return;
    }
    // Nobody relayed for a moment: whatever was notified then was missed by everyone.
    await this.publishAll('');
  }

  private forward(channel: string, payload: string): void {
    // Not awaited: ioredis writes commands in call order, so commit order is kept.
    this.options.link.commands.publish(this.options.link.prefix + channel, payload).catch(() => {
      this.dirty = true;
    });
  }

  private async publishAll(payload: string): Promise<void> {
    const { link, channels } = this.options;
    try {
      await Promise.all(
        channels.map((channel) => link.commands.publish(link.prefix + channel, payload)),
      );
    } catch {
      this.dirty = true;
    }
  }

  private async stepDown(announce: boolean): Promise<void> {
    this.held = false;
    // Until another process takes over (and says so with an empty payload), nobody relays.
    if (announce) await this.publishAll(RELAY_LOST);
    const unlistens = this.unlistens;
    this.unlistens = [];
    await Promise.all(unlistens.map((unlisten) => unlisten().catch(() => undefined)));
  }
}
