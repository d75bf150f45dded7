import type { FastifyBaseLogger } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import type { AuditLogTable, DB } from '../../db/schema.js';

export type AuditRow = Insertable<AuditLogTable>;

/** SQLSTATE class 22 (data exception) or 23 (integrity): the same rows would fail again. */
function refusedData(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
}

/** Rows per INSERT; a burst of requests becomes a few statements. */
const BATCH = 200;
/** Rows kept in memory while the database cannot take them; the oldest are dropped beyond. */
const MAX_PENDING = 10_000;
const RETRY_MS = 1000;
/** How long a first queued row waits for others before the INSERT. */
const GATHER_MS = 250;

/**
 * Writes audit rows after the responses they describe (decision 032): `record` queues a row
 * and returns at once; the queue is written 250 ms later, in batches of up to 200 rows.
 * A failed write is logged (never thrown: the request has already been answered) and
 * retried a second later; while the database stays away, at most MAX_PENDING rows wait.
 * `flush` writes whatever is queued (the app's onClose awaits it, and tests call it).
 */
export class AuditRecorder {
  private queue: AuditRow[] = [];
  private writing: Promise<void> | null = null;
  private scheduled = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private dropped = 0;
  /** After close: one more try for a late row, never a retry loop on a closed database. */
  private closed = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: FastifyBaseLogger,
  ) {}

  record(row: AuditRow): void {
    this.queue.push(row);
    if (this.queue.length > MAX_PENDING) {
      this.dropped += this.queue.length - MAX_PENDING;
      this.queue.splice(0, this.queue.length - MAX_PENDING);
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.retryTimer) return;
    this.scheduled = true;
    // A short wait gathers the rows of requests answered meanwhile into one INSERT.
    const timer = setTimeout(() => {
      this.scheduled = false;
      void this.drain();
    }, GATHER_MS);
    timer.unref();
  }

  /** One writer at a time; it takes batches until the queue is empty or a write fails. */
  private drain(): Promise<void> {
    this.writing ??= this.writeAll().finally(() => {
      this.writing = null;
    });
    return this.writing;
  }

  private async writeAll(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      try {
        await this.db.insertInto('audit_log').values(batch).execute();
      } catch (err) {
        if (refusedData(err)) {
          // A row the database will never take (a data exception): retrying would block
          // every later row behind it.
          this.log.error({ err, dropped: batch.length }, 'audit log: entries refused; dropped');
          continue;
        }
        // Back in front, in order; a later write (or the shutdown's flush) tries again.
        this.queue.unshift(...batch);
        if (this.queue.length > MAX_PENDING) {
          this.dropped += this.queue.length - MAX_PENDING;
          this.queue.splice(0, this.queue.length - MAX_PENDING);
        }
        this.log.error(
          { err, pending: this.queue.length },
          'audit log: writing entries failed; retrying',
        );
        this.retryLater();
        return;
      }
    }
    if (this.dropped > 0) {
      this.log.error({ dropped: this.dropped }, 'audit log: entries dropped while writes failed');
      this.dropped = 0;
    }
  }

  private retryLater(): void {
    if (this.retryTimer) return;
    if (this.closed) {
      this.log.error({ lost: this.queue.length }, 'audit log: entries not written at shutdown');
      this.queue = [];
      return;
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.drain();
    }, RETRY_MS);
    this.retryTimer.unref();
  }

  /** Writes every queued row now (one more try after a failure); never throws. */
  async flush(): Promise<void> {
    await this.writing;
    if (this.queue.length > 0) await this.drain();
  }

  /** On shutdown: the last rows written, no timer left behind. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.flush();
    if (this.queue.length > 0) {
      this.log.error({ lost: this.queue.length }, 'audit log: entries not written at shutdown');
      this.queue = [];
    }
  }
}
