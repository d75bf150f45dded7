import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DB, PaymentRow } from '../../db/schema.js';
import { PeriodicSweep } from '../../periodic.js';
import {
  type PaymentProvider,
  type ProviderEvent,
  TransactionNotFoundError,
} from '../../providers/provider.js';
import type { BookingsService } from '../bookings/bookings.service.js';
import { FAILURE_CODES } from './failure-codes.js';
import { lookUpTransaction } from './payment-lookup.js';
import type { PaymentStateMachine } from './payment-state-machine.js';
import { claimPaymentsToCheck } from './payments.repository.js';

export interface ReconcilerConfig {
  /** Ask the provider about payments pending at least this long (callbacks get lost). */
  reconcileAfterMs: number;
  /** Give up on a payment pending this long. */
  maxPendingMinutes: number;
  intervalMs: number;
  /** How a sweep works through a backlog (defaults below; the benchmark compares settings). */
  batchSize?: number;
  batchesPerSweep?: number;
  checksInFlight?: number;
}

export interface ReconcilerDeps {
  db: Kysely<DB>;
  clock: Clock;
  provider: PaymentProvider;
  bookings: BookingsService;
  stateMachine: PaymentStateMachine;
  config: ReconcilerConfig;
  log: FastifyBaseLogger;
}

export interface SweepResult {
  expiredHolds: number;
  checked: number;
  expiredPayments: number;
}

const HOLDS_PER_SWEEP = 500;
/** Payments claimed at once; a sweep claims batches until none is due (at most the cap). */
const PAYMENTS_PER_BATCH = 200;
const BATCHES_PER_SWEEP = 25;
/**
 * Status checks in flight at once: each waits mostly on the provider, so a few overlap well,
 * while the pool (10 connections) keeps room for requests.
 */
const CHECKS_IN_FLIGHT = 12;

/** What one check learned: settled, still pending at the provider, or nothing certain. */
type CheckResult =
  | { state: 'settled' }
  | { state: 'pending' }
  | { state: 'unknown'; reason: string };

async function forEachLimited<T>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * The background sweep: lapses stale holds, asks the provider about payments pending too
 * long (several at once, each state change in its own short transaction), and gives up on
 * payments pending past the limit — flagged for review when their outcome is unknown.
 * Several processes may sweep one database at once: rows are claimed with SKIP LOCKED.
 */
export class Reconciler {
  private readonly loop: PeriodicSweep;

  constructor(private readonly deps: ReconcilerDeps) {
    this.loop = new PeriodicSweep(
      () => this.sweep(),
      deps.config.intervalMs,
      (err: unknown) => deps.log.error({ err }, 'reconciler sweep failed'),
    );
  }

  async sweep(): Promise<SweepResult> {
    const { db, clock, config, bookings } = this.deps;
    const now = clock.now();
    const expiredHolds = await bookings.lapseStaleHolds(now, HOLDS_PER_SWEEP);
    const result: SweepResult = { expiredHolds, checked: 0, expiredPayments: 0 };
    const seen = new Set<string>();
    const batchSize = config.batchSize ?? PAYMENTS_PER_BATCH;
    const batches = config.batchesPerSweep ?? BATCHES_PER_SWEEP;
    for (let batch = 0; batch < batches; batch += 1) {
      const claimed = await db
        .transaction()
        .execute((trx) => claimPaymentsToCheck(trx, now, config.reconcileAfterMs, batchSize));
      // With RECONCILE_AFTER_MS=0 a claim may return rows this sweep already checked.
      const fresh = claimed.filter((p) => !seen.has(p.id));
      for (const p of fresh) seen.add(p.id);
      await forEachLimited(fresh, config.checksInFlight ?? CHECKS_IN_FLIGHT, (payment) =>
        this.reconcile(payment, now, result),
      );
      if (claimed.length < batchSize || fresh.length === 0) break;
    }
    return result;
  }

  private async reconcile(payment: PaymentRow, now: Date, result: SweepResult): Promise<void> {
    const { config, stateMachine, log } = this.deps;
    let check: CheckResult;
    try {
      check = await this.check(payment, result);
    } catch (err) {
      log.warn({ err, paymentId: payment.id }, 'status check failed; will retry');
      check = { state: 'unknown', reason: 'PROVIDER_UNAVAILABLE' };
    }
    if (check.state === 'settled') return;
    if (now.getTime() - payment.created_at.getTime() < config.maxPendingMinutes * 60_000) return;
    // The provider says it is still pending: it will fail there too; a late success is
    // recorded for refund. Otherwise nobody knows whether money was taken: an operator must.
    const gaveUp =
      check.state === 'pending'
        ? await stateMachine.failPending(payment.id, FAILURE_CODES.EXPIRED, {
            source: 'expiry',
            outcome: 'expired',
            payload: { pending_since: payment.created_at.toISOString() },
          })
        : await stateMachine.failPending(
            payment.id,
            FAILURE_CODES.OUTCOME_UNKNOWN,
            {
              source: 'expiry',
              outcome: 'needs_review',
              payload: { pending_since: payment.created_at.toISOString(), reason: check.reason },
            },
            check.reason,
          );
    if (gaveUp) result.expiredPayments += 1;
  }

  /** Asks the provider, by the reference we recorded or else by our payment id. */
  private async check(payment: PaymentRow, result: SweepResult): Promise<CheckResult> {
    const { db, clock, provider, stateMachine } = this.deps;
    let event: ProviderEvent | null;
    if (payment.provider_reference) {
      try {
        event = await provider.getStatus(payment.provider_reference);
      } catch (err) {
        if (err instanceof TransactionNotFoundError) {
          return { state: 'unknown', reason: 'REFERENCE_UNKNOWN_AT_PROVIDER' };
        }
        throw err;
      }
    } else {
      if (!provider.capabilities.lookupByPaymentId) {
        return { state: 'unknown', reason: 'NO_PROVIDER_REFERENCE' };
      }
      event = await lookUpTransaction({ db, clock, provider }, payment);
      if (!event) return { state: 'unknown', reason: 'NOT_FOUND_AT_PROVIDER' };
    }
    result.checked += 1;
    const outcome = await stateMachine.applyEvent(event, 'status_check', { ...event }, payment.id);
    return outcome === 'still_pending' ? { state: 'pending' } : { state: 'settled' };
  }

  /** Sweeps every `intervalMs` (see PeriodicSweep). */
  start(): void {
    this.loop.start();
  }

  /** Stops the loop and waits for a sweep in flight. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
