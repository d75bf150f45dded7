import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/database.js';

/** Filled by the triggers of migration 010; every process LISTENs to it. */
export const READ_CACHE_CHANNEL = 'qless_cache';

/** An answer ready to send: the JSON text validated once, and its strong ETag. */
export interface CachedAnswer {
  body: string;
  etag: string;
}

/** What a fill computes: the answer, what invalidates it, and until when it holds. */
export interface Fill<T> {
  value: T;
  /** Notification topics that make this answer wrong (see migration 010). */
  topics: string[];
  /** Epoch ms after which the answer is wrong without any write (lapsed hold, new day). */
  expiresAt?: number;
  /**
   * False: answer it, do not keep it. For keys a client can vary at will (any search text,
   * any date range), which would otherwise push the hot answers out of memory.
   */
  keep?: boolean;
}

export interface ReadCacheOptions {
  clock: Clock;
  /** Off: every read computes (and validates) its answer; nothing is kept. */
  enabled: boolean;
  maxEntries: number;
  maxBytes: number;
  /** Upper bound on any entry's life, in case a notification was ever lost unnoticed. */
  maxAgeMs: number;
  /** How long a writer waits for its own sync token before giving up on the cache. */
  syncTimeoutMs?: number;
  /**
   * PostgreSQL: how often the process checks that its listener still hears (a connection
   * can freeze without closing); until a check passes again nothing is served from memory.
   */
  heartbeatMs?: number;
  onWarning?: (message: string) => void;
}

interface Entry extends CachedAnswer {
  key: string;
  topics: string[];
  expiresAt: number;
  bytes: number;
}

interface Pending {
  generation: number;
  promise: Promise<CachedAnswer>;
}

/**
 * Serialized answers of the public catalogue, kept until the database says they changed.
 *
 * Freshness: triggers NOTIFY a topic at commit; the listener drops the entries tagged with
 * it. A fill that overlapped any notification is served but not kept (its snapshot may
 * predate the write), and a fill in flight is never joined across a notification. While
 * the listening connection is down, or a heartbeat's own notification did not come back in
 * time (a frozen connection), nothing is served from or kept in the cache. A process
 * that wrote waits (`sync`) until its listener has seen its own commit's notifications, so
 * its next read cannot be stale. Entries also expire by time where the answer depends on
 * it, and the cache is bounded (least recently used entries go first).
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byTopic = new Map<string, Set<string>>();
  private readonly pending = new Map<string, Pending>();
  private readonly waiters = new Map<string, () => void>();
  private generation = 0;
  private bytes = 0;
  private live = false;
  /** A sync token went missing: the listener may be deaf though its connection is open. */
  private suspect = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private database: Database | null = null;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly options: ReadCacheOptions) {}

  async start(database: Database): Promise<void> {
    if (!this.options.enabled) return;
    this.database = database;
    this.unlisten = await database.listen(
      READ_CACHE_CHANNEL,
      (payload) => this.onPayload(payload),
      () => this.onLost(),
    );
    this.live = true;
    if (database.engine === 'postgres') {
      this.heartbeat = setInterval(() => void this.probe(), this.options.heartbeatMs ?? 5000);
      this.heartbeat.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.live = false;
    this.clear();
    await this.unlisten?.();
    this.unlisten = null;
  }

  /** True while answers may be served from memory. */
  get serving(): boolean {
    return this.live && !this.suspect;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The answer under `key`: from memory when present and current, else computed once
   * (concurrent misses share the computation), validated against `schema` and kept.
   */
  async read<S extends z.ZodType>(
    key: string,
    schema: S,
    compute: () => Promise<Fill<z.output<S>>>,
  ): Promise<CachedAnswer> {
    const hit = this.lookup(key);
    if (hit) return hit;
    const joined = this.pending.get(key);
    if (joined && joined.generation === this.generation) return joined.promise;
    const generation = this.generation;
    const promise = this.fill(key, schema, compute, generation);
    if (this.serving) {
      this.pending.set(key, { generation, promise });
      const forget = () => {
        if (this.pending.get(key)?.promise === promise) this.pending.delete(key);
      };
      promise.then(forget, forget);
    }
    return promise;
  }

  /**
   * Resolves once this process's listener has seen every notification committed before
   * the call: notifications reach a listener in commit order, so our own token arriving
   * means the ones before it did. PGlite delivers them before the commit returns.
   */
  async sync(): Promise<void> {
    // Not trusted at the moment: nothing is served from memory, so a writer has nothing to
    // wait for (the heartbeat's probe decides when the cache is trusted again).
    if (this.suspect) return;
    await this.probe();
  }

  private async probe(): Promise<void> {
    const database = this.database;
    if (!this.live || !database || database.engine === 'pglite') return;
    const token = `sync:${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.waiters.set(token, () => resolve(true));
      timer = setTimeout(() => resolve(false), this.options.syncTimeoutMs ?? 2000);
    });
    try {
      await sql`select pg_notify(${READ_CACHE_CHANNEL}, ${token})`.execute(database.db);
      if (await arrived) {
        if (this.suspect) {
          // Heard again; what was missed meanwhile is unknown.
          this.clear();
          this.suspect = false;
        }
      } else {
        if (!this.suspect) {
          this.options.onWarning?.('read cache: own notification did not arrive; not serving');
        }
        this.distrust();
      }
    } catch {
      // The database refused the token: whether the listener hears is unknown.
      this.distrust();
    } finally {
      clearTimeout(timer);
      this.waiters.delete(token);
    }
  }

  /** Drops every entry tagged with `topic` ('*': all). */
  invalidate(topic: string): void {
    this.generation++;
    if (topic === '*') {
      this.clearEntries();
      return;
    }
    const keys = this.byTopic.get(topic);
    if (!keys) return;
    for (const key of [...keys]) this.remove(key);
  }

  clear(): void {
    this.generation++;
    this.clearEntries();
  }

  private clearEntries(): void {
    this.entries.clear();
    this.byTopic.clear();
    this.pending.clear();
    this.bytes = 0;
  }

  private onPayload(payload: string): void {
    if (payload.startsWith('sync:')) {
      this.waiters.get(payload)?.();
      return;
    }
    if (payload === '') {
      // Reconnected: what happened while away is unknown.
      this.clear();
      this.live = true;
      return;
    }
    this.invalidate(payload);
  }

  private distrust(): void {
    this.suspect = true;
    this.clear();
  }

  private onLost(): void {
    this.live = false;
    this.clear();
    for (const wake of this.waiters.values()) wake();
  }

  private lookup(key: string): CachedAnswer | undefined {
    if (!this.serving) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.options.clock.now().getTime() >= entry.expiresAt) {
      this.remove(key);
      return undefined;
    }
    // Most recently used last: eviction takes the Map's first keys.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  private async fill<S extends z.ZodType>(
    key: string,
    schema: S,
    compute: () => Promise<Fill<z.output<S>>>,
    generation: number,
  ): Promise<CachedAnswer> {
    const { value, topics, expiresAt, keep = true } = await compute();
    const body = JSON.stringify(z.encode(schema, value));
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const now = this.options.clock.now().getTime();
    const until = Math.min(expiresAt ?? Number.POSITIVE_INFINITY, now + this.options.maxAgeMs);
    if (keep && this.serving && generation === this.generation && until > now) {
      this.store({ key, body, etag, topics, expiresAt: until, bytes: body.length * 2 });
    }
    return { body, etag };
  }

  private store(entry: Entry): void {
    if (entry.bytes > this.options.maxBytes) return;
    this.remove(entry.key);
    this.entries.set(entry.key, entry);
    this.bytes += entry.bytes;
    for (const topic of entry.topics) {
      let keys = this.byTopic.get(topic);
      if (!keys) {
        keys = new Set();
        this.byTopic.set(topic, keys);
      }
      keys.add(entry.key);
    }
    while (this.entries.size > this.options.maxEntries || this.bytes > this.options.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    for (const topic of entry.topics) {
      const keys = this.byTopic.get(topic);
      keys?.delete(key);
      if (keys?.size === 0) this.byTopic.delete(topic);
    }
  }
}

/** Does an If-None-Match header name this ETag (weak comparison, as RFC 9110 asks)? */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
