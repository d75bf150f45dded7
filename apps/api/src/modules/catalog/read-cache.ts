import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Database } from '../../db/database.js';
import type { Fanout } from '../../fanout.js';

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
  /** Each read: answered from memory (or a fill it could join) or not (metrics). */
  onRead?: (hit: boolean) => void;
}

interface Entry extends CachedAnswer {
  key: string;
  topics: string[];
  expiresAt: number;
  bytes: number;
}

/** A fill under way, and the topics notified since it started (in order; '*' for all). */
interface InFlight {
  notified: string[];
  promise: Promise<Filled>;
}

interface Filled {
  answer: CachedAnswer;
  topics: string[];
}

/**
 * Past this many notifications during one fill, the fill stops listing them and counts as
 * overlapped by every topic: a fill that slow is not worth keeping.
 */
const MAX_NOTIFIED_PER_FILL = 256;

/**
 * Serialized answers of the public catalogue, kept until the database says they changed.
 *
 * Freshness: triggers NOTIFY a topic at commit; the listener drops the entries tagged with
 * it. A fill that overlapped a notification of one of its own topics is served but not
 * kept (its snapshot may predate the write); a reader that joins a fill in flight takes its
 * answer only if none of the answer's topics was notified between the fill's start and the
 * reader's arrival, and computes its own otherwise. While the listening connection is down,
 * or a heartbeat's own notification did not come back in time (a frozen connection),
 * nothing is served from or kept in the cache. A process that wrote waits (`sync`) until its listener has seen its own commit's notifications, so
 * its next read cannot be stale. Entries also expire by time where the answer depends on
 * it, and the cache is bounded (least recently used entries go first, by lru-cache).
 */
export class ReadCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly byTopic = new Map<string, Set<string>>();
  /** Fills that later misses of the same key may join (only while serving). */
  private readonly pending = new Map<string, InFlight>();
  /** Every fill under way, joinable or not: each learns of the notifications it overlaps. */
  private readonly inFlight = new Set<InFlight>();
  private readonly waiters = new Map<string, () => void>();
  private live = false;
  /** A sync token went missing: the listener may be deaf though its connection is open. */
  private suspect = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private database: Database | null = null;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly options: ReadCacheOptions) {
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      sizeCalculation: (entry) => entry.bytes,
      dispose: (entry, key) => this.unindex(key, entry.topics),
    });
  }

  /**
   * `fanout` carries the triggers' notifications: the database's own LISTEN, or Redis fed by
   * the relay (decision 033); the sync tokens are NOTIFYed in the database either way, so
   * they travel the same path as the commits they follow.
   */
  async start(database: Database, fanout: Fanout = database): Promise<void> {
    if (!this.options.enabled) return;
    this.database = database;
    this.unlisten = await fanout.listen(
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
    if (hit) {
      this.options.onRead?.(true);
      return hit;
    }
    const joined = this.pending.get(key);
    if (joined) {
      const seen = joined.notified.length;
      const { answer, topics } = await joined.promise;
      if (!overlaps(joined.notified.slice(0, seen), topics)) {
        this.options.onRead?.(true);
        return answer;
      }
    }
    this.options.onRead?.(false);
    return (await this.startFill(key, schema, compute)).answer;
  }

  private startFill<S extends z.ZodType>(
    key: string,
    schema: S,
    compute: () => Promise<Fill<z.output<S>>>,
  ): Promise<Filled> {
    const notified: string[] = [];
    const promise = this.fill(key, schema, compute, notified).finally(() => {
      this.inFlight.delete(flight);
      if (this.pending.get(key) === flight) this.pending.delete(key);
    });
    const flight: InFlight = { notified, promise };
    this.inFlight.add(flight);
    if (this.serving) this.pending.set(key, flight);
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
    this.noteInFlight(topic);
    if (topic === '*') {
      this.clearEntries();
      return;
    }
    const keys = this.byTopic.get(topic);
    if (!keys) return;
    for (const key of [...keys]) this.entries.delete(key);
  }

  clear(): void {
    this.noteInFlight('*');
    this.clearEntries();
  }

  private noteInFlight(topic: string): void {
    for (const { notified } of this.inFlight) {
      if (notified.at(-1) === '*') continue;
      notified.push(notified.length < MAX_NOTIFIED_PER_FILL ? topic : '*');
    }
  }

  private clearEntries(): void {
    this.entries.clear();
    this.byTopic.clear();
    this.pending.clear();
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
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private async fill<S extends z.ZodType>(
    key: string,
    schema: S,
    compute: () => Promise<Fill<z.output<S>>>,
    notified: readonly string[],
  ): Promise<Filled> {
    const { value, topics, expiresAt, keep = true } = await compute();
    const body = JSON.stringify(z.encode(schema, value));
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const now = this.options.clock.now().getTime();
    const until = Math.min(expiresAt ?? Number.POSITIVE_INFINITY, now + this.options.maxAgeMs);
    if (keep && this.serving && !overlaps(notified, topics) && until > now) {
      this.store({ key, body, etag, topics, expiresAt: until, bytes: body.length * 2 });
    }
    return { answer: { body, etag }, topics };
  }

  private store(entry: Entry): void {
    // Unindexes the entry it replaces first (dispose), so the new one's topics stay indexed.
    this.entries.delete(entry.key);
    // Refused (and nothing else evicted) when larger than maxBytes on its own.
    this.entries.set(entry.key, entry);
    if (!this.entries.has(entry.key)) return;
    for (const topic of entry.topics) {
      let keys = this.byTopic.get(topic);
      if (!keys) {
        keys = new Set();
        this.byTopic.set(topic, keys);
      }
      keys.add(entry.key);
    }
  }

  private unindex(key: string, topics: readonly string[]): void {
    for (const topic of topics) {
      const keys = this.byTopic.get(topic);
      keys?.delete(key);
      if (keys?.size === 0) this.byTopic.delete(topic);
    }
  }
}

/** Did any of `notified` (in order, '*' for all) concern an answer tagged with `topics`? */
function overlaps(notified: readonly string[], topics: readonly string[]): boolean {
  return notified.some((topic) => topic === '*' || topics.includes(topic));
}

/** Does an If-None-Match header name this ETag (weak comparison, as RFC 9110 asks)? */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
