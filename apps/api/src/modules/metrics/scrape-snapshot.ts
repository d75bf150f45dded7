import { type Kysely, sql } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { DB } from '../../db/schema.js';

/** Counts stop here: a backlog this large is an incident whatever its exact size. */
export const COUNT_CAP = 100_000;

interface ChannelFigures {
  pending: number;
  due: number;
  oldestSeconds: number;
}

/** What the database says at one scrape. */
export interface SnapshotFigures {
  payments: {
    pending: number;
    needsReview: number;
    needsRefund: number;
    oldestPendingSeconds: number;
    /** Pending payments due a status check (the reconciler's backlog). */
    dueForCheck: number;
  };
  outbox: Record<'sms' | 'email' | 'push' | 'whatsapp', ChannelFigures>;
}

/** Null figures: the database did not answer within the scrape's bound. */
export interface Snapshot {
  figures: SnapshotFigures | null;
}

export interface ScrapeSnapshotOptions {
  db: Kysely<DB>;
  clock: Clock;
  /** The reconciler's RECONCILE_AFTER_MS: a pending payment older than this is due a check. */
  reconcileAfterMs: number;
  /** Reused for this long: several scrapers (or instances of Prometheus) cost one read. */
  ttlMs?: number;
  /**
   * A scrape waits this long for the read at most, then says the database did not answer
   * (`qless_database_up 0`); the read goes on and serves the scrapes after it.
   */
  waitMs?: number;
  onError?: (err: unknown) => void;
}

const TTL_MS = 5000;
const WAIT_MS = 800;

interface OutboxRow {
  channel: 'sms' | 'email' | 'push' | 'whatsapp';
  pending: number;
  due: number;
  oldest: string | null;
}

/**
 * The figures only SQL can give (payments by state, backlogs), read in ONE statement (one
 * round trip: a database 200 ms away still answers a scrape in time), each count bounded by
 * COUNT_CAP and served by a partial index (pending payments, flagged payments, pending
 * messages). The statement is bounded by the pool's statement_timeout
 * (DATABASE_STATEMENT_TIMEOUT_MS) and its stall watch, and a scrape waits `waitMs` for it at
 * most. A scrape within `ttlMs` of the last read (by the app's clock) is answered from it.
 */
export class ScrapeSnapshot {
  private last: { at: number; value: Promise<Snapshot> } | null = null;

  constructor(private readonly options: ScrapeSnapshotOptions) {}

  current(): Promise<Snapshot> {
    // The app's clock (a test's pinned clock moves only when the test says so).
    const now = this.options.clock.now().getTime();
    const age = this.last ? now - this.last.at : Number.POSITIVE_INFINITY;
    if (!this.last || age < 0 || age >= (this.options.ttlMs ?? TTL_MS)) {
      const value = this.query().then(
        (figures) => ({ figures }),
        (err: unknown) => {
          this.options.onError?.(err);
          return { figures: null };
        },
      );
      this.last = { at: now, value };
    }
    return within(this.last.value, this.options.waitMs ?? WAIT_MS);
  }

  private async query(): Promise<SnapshotFigures> {
    const { db, clock, reconcileAfterMs } = this.options;
    const now = clock.now();
    const cutoff = new Date(now.getTime() - reconcileAfterMs);
    const ageOf = (oldest: Date | string | null) =>
      oldest === null ? 0 : Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000);
    const { rows } = await sql<{
      pending: number;
      oldest: Date | null;
      due: number;
      review: number;
      refund: number;
      outbox: OutboxRow[] | string | null;
    }>`
      select
        (select count(*) from (select 1 from payments where status = 'PENDING'
           limit ${COUNT_CAP}) p)::int as pending,
        (select min(created_at) from payments where status = 'PENDING') as oldest,
        (select count(*) from (select 1 from payments where status = 'PENDING'
           and coalesce(last_checked_at, created_at) <= ${cutoff}
           and created_at <= ${cutoff} limit ${COUNT_CAP}) d)::int as due,
        (select count(*) from (select 1 from payments where needs_review
           limit ${COUNT_CAP}) r)::int as review,
        (select count(*) from (select 1 from payments where needs_refund
           limit ${COUNT_CAP}) f)::int as refund,
        (select json_agg(o) from (
           select channel, count(*)::int as pending,
                  (count(*) filter (where next_attempt_at <= ${now}))::int as due,
                  min(created_at) as oldest
             from (select channel, next_attempt_at, created_at from outbox
                    where status = 'pending' limit ${COUNT_CAP}) x
            group by channel) o) as outbox`.execute(db);
    const p = rows[0];
    const outbox: OutboxRow[] =
      typeof p?.outbox === 'string' ? JSON.parse(p.outbox) : (p?.outbox ?? []);
    const channel = (name: 'sms' | 'email' | 'push' | 'whatsapp'): ChannelFigures => {
      const row = outbox.find((r) => r.channel === name);
      return row
        ? { pending: row.pending, due: row.due, oldestSeconds: ageOf(row.oldest) }
        : { pending: 0, due: 0, oldestSeconds: 0 };
    };
    return {
      payments: {
        pending: p?.pending ?? 0,
        needsReview: p?.review ?? 0,
        needsRefund: p?.refund ?? 0,
        oldestPendingSeconds: ageOf(p?.oldest ?? null),
        dueForCheck: p?.due ?? 0,
      },
      outbox: {
        sms: channel('sms'),
        email: channel('email'),
        push: channel('push'),
        whatsapp: channel('whatsapp'),
      },
    };
  }
}

/** `read`, or no figures when it takes longer than `ms`. */
function within(read: Promise<Snapshot>, ms: number): Promise<Snapshot> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Snapshot>((resolve) => {
    timer = setTimeout(() => resolve({ figures: null }), ms);
  });
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}
