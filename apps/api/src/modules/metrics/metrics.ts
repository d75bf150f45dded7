import {
  type Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  type LabelValues,
  Counter as PromCounter,
  Registry,
} from 'prom-client';
import type { DatabaseErrorKind, PoolObserver, PoolStats } from '../../db/pg-pool.js';
import type { LiveSocketKind } from '../../limits/live-sockets.js';
import { type CounterCell, FastCounter, FastHistogram, type HistogramCell } from './fast-series.js';
import type { ScrapeSnapshot, SnapshotFigures } from './scrape-snapshot.js';

/** Every series this app exports starts so (the default process metrics too). */
export const PREFIX = 'qless_';

export type SocketKind = LiveSocketKind;
export type ConfirmSource = 'callback' | 'status_check';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const OUTBOX_CHANNELS = ['sms', 'email', 'push', 'whatsapp'] as const;
const SOCKET_KINDS: SocketKind[] = ['payment_status', 'board', 'turn'];
/** Why a message was not sent (outbox-worker.ts names them; "elsewhere": its push was shown). */
const SKIPS = ['too_late', 'recipient_cap', 'delivered_elsewhere', 'sms_budget'] as const;
export const SKIP_LABELS = [...SKIPS, 'other'] as const;

/** A WebSocket close code as a bounded label: who ended it and why. */
export function closeReason(code: number): string {
  if (code === 1000) return 'normal';
  if (code === 1001) return 'going_away';
  if (code === 1005 || code === 1006) return 'abnormal';
  if (code === 1012) return 'restart';
  if (code === 1011) return 'error';
  if (code >= 4000 && code < 5000) return 'refused';
  return 'other';
}

/** What the scrape reads besides the snapshot: set by the app once its parts exist. */
export interface ScrapeSources {
  snapshot?: ScrapeSnapshot;
  poolStats?: () => PoolStats;
  draining?: () => boolean;
}

/**
 * The app's Prometheus series, in a registry of its own (tests build many apps in one
 * process). Hot paths only increment or observe; what needs SQL (payments by state,
 * backlogs) is read at scrape time, through a cached snapshot (scrape-snapshot.ts).
 */
export class Metrics implements PoolObserver {
  readonly registry = new Registry();
  private readonly sources: ScrapeSources = {};

  private readonly httpRequests: FastCounter;
  private readonly httpDuration: FastHistogram;
  /** The cells of each method+status+route: a request costs one Map lookup. */
  private readonly httpCells = new Map<string, { count: CounterCell; duration: HistogramCell }>();
  private readonly settled: Counter<'status' | 'source'>;
  private readonly confirmSeconds: Histogram<'source'>;
  private readonly initiatedToConfirmed: Histogram<'source'>;
  private readonly sweeps: Counter<'result'>;
  private readonly checks: Counter<'result'>;
  private readonly outboxSent: Counter<'channel'>;
  private readonly deliveryFailures: Counter<'channel' | 'kind'>;
  private readonly outboxSkipped: Counter<'channel' | 'reason'>;
  private readonly sockets: Gauge<'kind'>;
  private readonly socketsClosed: Counter<'kind' | 'reason'>;
  private readonly poolAcquire: FastHistogram;
  private readonly poolAcquireCell: HistogramCell;
  private readonly dbErrors: Counter<'kind'>;
  private readonly cacheHit: CounterCell;
  private readonly cacheMiss: CounterCell;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new PromCounter<L>({ name: PREFIX + name, help, labelNames, registers });
    const histogram = <L extends string>(
      name: string,
      help: string,
      labelNames: L[],
      buckets: number[],
    ) => new Histogram<L>({ name: PREFIX + name, help, labelNames, buckets, registers });
    const snapshotGauge = <L extends string>(
      name: string,
      help: string,
      labelNames: L[],
      apply: (gauge: Gauge<L>, figures: SnapshotFigures) => void,
    ) => {
      const sources = this.sources;
      return new Gauge<L>({
        name: PREFIX + name,
        help,
        labelNames,
        registers,
        async collect() {
          // Every series of the snapshot shares one read (and its cache) per scrape.
          // No figures (the database did not answer in time): no series rather than stale ones.
          const snapshot = await sources.snapshot?.current();
          this.reset();
          if (snapshot?.figures) apply(this, snapshot.figures);
        },
      });
    };

    this.httpRequests = new FastCounter(
      this.registry,
      `${PREFIX}http_requests_total`,
      'HTTP requests answered',
      ['method', 'route', 'status'],
    );
    this.httpDuration = new FastHistogram(
      this.registry,
      `${PREFIX}http_request_duration_seconds`,
      'Time to answer an HTTP request, per route pattern',
      ['method', 'route', 'status_class'],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    );

    snapshotGauge(
      'payments',
      'Payments that need watching, by state (pending; flagged needs_review or needs_refund)',
      ['state'],
      (g, s) => {
        g.set({ state: 'pending' }, s.payments.pending);
        g.set({ state: 'needs_review' }, s.payments.needsReview);
        g.set({ state: 'needs_refund' }, s.payments.needsRefund);
      },
    );
    snapshotGauge(
      'payments_oldest_age_seconds',
      'Age of the oldest payment in a non-final state (0 when there is none)',
      ['state'],
      (g, s) => g.set({ state: 'pending' }, s.payments.oldestPendingSeconds),
    );
    this.settled = counter('payments_settled_total', 'Payments that reached a final status', [
      'status',
      'source',
    ]);
    this.confirmSeconds = histogram(
      'payment_confirm_seconds',
      "From the provider's success in hand (callback or status answer) to the booking confirmed",
      ['source'],
      [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    );
    this.initiatedToConfirmed = histogram(
      'payment_initiated_to_confirmed_seconds',
      'From the payment initiated to its booking confirmed (long when callbacks are lost)',
      ['source'],
      [1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600, 1800],
    );

    snapshotGauge(
      'reconciler_backlog',
      'Pending payments due a status check with the provider',
      [],
      (g, s) => g.set(s.payments.dueForCheck),
    );
    this.sweeps = counter('reconciler_sweeps_total', 'Reconciler sweeps', ['result']);
    this.checks = counter('reconciler_checks_total', 'Status checks of pending payments', [
      'result',
    ]);

    snapshotGauge('outbox_pending', 'Messages waiting in the outbox', ['channel'], (g, s) => {
      for (const c of OUTBOX_CHANNELS) g.set({ channel: c }, s.outbox[c].pending);
    });
    snapshotGauge(
      'outbox_due',
      'Messages due now that no worker has claimed',
      ['channel'],
      (g, s) => {
        for (const c of OUTBOX_CHANNELS) g.set({ channel: c }, s.outbox[c].due);
      },
    );
    snapshotGauge(
      'outbox_oldest_pending_age_seconds',
      'Age of the oldest message still waiting (0 when there is none)',
      ['channel'],
      (g, s) => {
        for (const c of OUTBOX_CHANNELS) g.set({ channel: c }, s.outbox[c].oldestSeconds);
      },
    );
    this.outboxSent = counter('outbox_sent_total', 'Messages handed to their channel', ['channel']);
    this.deliveryFailures = counter(
      'outbox_delivery_failures_total',
      'Failed deliveries: temporary (tried again) or permanent (given up)',
      ['channel', 'kind'],
    );
    this.outboxSkipped = counter(
      'outbox_skipped_total',
      'Messages not sent: too late, the recipient cap, or no longer true (other)',
      ['channel', 'reason'],
    );

    this.sockets = new Gauge({
      name: `${PREFIX}live_sockets`,
      help: 'Open live sockets of this process',
      labelNames: ['kind'],
      registers,
    });
    for (const kind of SOCKET_KINDS) this.sockets.set({ kind }, 0);
    this.socketsClosed = counter('live_sockets_closed_total', 'Live sockets closed, by reason', [
      'kind',
      'reason',
    ]);

    const sources = this.sources;
    new Gauge({
      name: `${PREFIX}db_pool_connections`,
      help: 'Database connections of this process: total, idle, and requests waiting for one',
      labelNames: ['state'],
      registers,
      collect() {
        const stats = sources.poolStats?.();
        this.reset();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
    this.poolAcquire = new FastHistogram(
      this.registry,
      `${PREFIX}db_pool_acquire_seconds`,
      'Wait for a database connection (PGlite: for its one session)',
      [],
      [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    );
    this.poolAcquireCell = this.poolAcquire.cell('', () => ({}));
    this.dbErrors = counter(
      'db_errors_total',
      'Queries that met an unavailable database: connect, stall, timeout, connection_lost',
      ['kind'],
    );
    new Gauge({
      name: `${PREFIX}database_up`,
      help: "1 when the scrape's read of the database (at most 5 s old) answered in time",
      registers,
      async collect() {
        const snapshot = await sources.snapshot?.current();
        this.set(snapshot?.figures ? 1 : 0);
      },
    });

    const cache = new FastCounter(
      this.registry,
      `${PREFIX}read_cache_requests_total`,
      'Public catalogue reads, by cache result',
      ['result'],
    );
    this.cacheHit = cache.cell('hit', () => ({ result: 'hit' }));
    this.cacheMiss = cache.cell('miss', () => ({ result: 'miss' }));

    const draining = () => this.sources.draining?.() ?? false;
    new Gauge({
      name: `${PREFIX}draining`,
      help: '1 while this process is shutting down (not ready, finishing its work)',
      registers,
      collect() {
        this.set(draining() ? 1 : 0);
      },
    });

    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    this.zero();
  }

  /**
   * Every label set a counter or histogram can take, at 0 from the start: a series that
   * appears only with its first event hides that event from rate() and increase().
   */
  private zero(): void {
    for (const status of ['SUCCESSFUL', 'FAILED']) {
      for (const source of ['callback', 'status_check', 'expiry', 'initiation', 'customer']) {
        this.settled.inc({ status, source }, 0);
      }
    }
    for (const source of ['callback', 'status_check'] as const) {
      this.confirmSeconds.zero({ source });
      this.initiatedToConfirmed.zero({ source });
    }
    for (const result of ['ok', 'failed']) this.sweeps.inc({ result }, 0);
    for (const result of ['settled', 'pending', 'unknown', 'failed'])
      this.checks.inc({ result }, 0);
    for (const channel of OUTBOX_CHANNELS) {
      this.outboxSent.inc({ channel }, 0);
      for (const kind of ['permanent', 'temporary']) {
        this.deliveryFailures.inc({ channel, kind }, 0);
      }
      for (const reason of SKIP_LABELS) this.outboxSkipped.inc({ channel, reason }, 0);
    }
    for (const kind of SOCKET_KINDS) {
      for (const code of [1000, 1001, 1006, 1011, 1012, 4000, 0]) {
        this.socketsClosed.inc({ kind, reason: closeReason(code) }, 0);
      }
    }
    for (const kind of ['connect', 'stall', 'timeout', 'connection_lost']) {
      this.dbErrors.inc({ kind }, 0);
    }
  }

  /** Where the scrape reads the database's figures, the pool and the drain state. */
  attach(sources: ScrapeSources): void {
    Object.assign(this.sources, sources);
  }

  /** One answered request: `route` is the route's pattern, never the URL. */
  request(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let cells = this.httpCells.get(key);
    if (!cells) {
      const m = METHODS.has(method) ? method : 'OTHER';
      const statusClass = `${Math.floor(status / 100)}xx`;
      cells = {
        count: this.httpRequests.cell(key, () => ({ method: m, route, status: String(status) })),
        duration: this.httpDuration.cell(`${m} ${statusClass} ${route}`, () => ({
          method: m,
          route,
          status_class: statusClass,
        })),
      };
      this.httpCells.set(key, cells);
    }
    cells.count.value += 1;
    this.httpDuration.observe(cells.duration, seconds);
  }

  /** A payment reached a final status (after its transaction committed). */
  paymentSettled(status: 'SUCCESSFUL' | 'FAILED', source: string): void {
    this.settled.inc({ status, source });
  }

  /**
   * A booking was confirmed by a provider's success: `seconds` from the success in hand to
   * the commit, `sinceInitiated` from the payment's creation.
   */
  bookingConfirmed(source: ConfirmSource, seconds: number, sinceInitiated: number): void {
    const labels: LabelValues<'source'> = { source };
    this.confirmSeconds.observe(labels, seconds);
    this.initiatedToConfirmed.observe(labels, Math.max(0, sinceInitiated));
  }

  reconcilerSweep(ok: boolean): void {
    this.sweeps.inc({ result: ok ? 'ok' : 'failed' });
  }

  /** One status check: settled, still pending, unknown (no answer to act on), failed. */
  reconcilerCheck(result: 'settled' | 'pending' | 'unknown' | 'failed'): void {
    this.checks.inc({ result });
  }

  messageSent(channel: string): void {
    this.outboxSent.inc({ channel });
  }

  messageSkipped(channel: string, reason: (typeof SKIP_LABELS)[number]): void {
    this.outboxSkipped.inc({ channel, reason });
  }

  deliveryFailed(channel: string, permanent: boolean): void {
    this.deliveryFailures.inc({ channel, kind: permanent ? 'permanent' : 'temporary' });
  }

  socketOpened(kind: SocketKind): void {
    this.sockets.inc({ kind });
  }

  socketClosed(kind: SocketKind, code: number): void {
    this.sockets.dec({ kind });
    this.socketsClosed.inc({ kind, reason: closeReason(code) });
  }

  acquired(waitSeconds: number): void {
    this.poolAcquire.observe(this.poolAcquireCell, waitSeconds);
  }

  unavailable(kind: DatabaseErrorKind): void {
    this.dbErrors.inc({ kind });
  }

  cacheRead(hit: boolean): void {
    (hit ? this.cacheHit : this.cacheMiss).value += 1;
  }

  /** The exposition text of every series. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Names of every series registered (without the _bucket/_sum/_count of histograms). */
  names(): string[] {
    return this.registry.getMetricsAsArray().map((m) => m.name);
  }
}
