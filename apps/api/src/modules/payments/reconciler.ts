import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import pLimit from 'p-limit';
import type { Clock } from '../../core/clock.js';
import type { DB, PaymentRow } from '../../db/schema.js';
import { PeriodicSweep } from '../../periodic.js';
import {
  type PaymentProvider,
  type ProviderEvent,
  TransactionNotFoundError,
} from '../../providers/provider.js';
import type { BookingsService } from '../bookings/bookings.module.js';
import type { Metrics } from '../metrics/metrics.module.js';
import { FAILURE_CODES } from './failure-codes.js';
import { type FoundTransaction, findTransaction, saveFoundTransaction } from './payment-lookup.js';
import type { PaymentStateMachine } from './payment-state-machine.js';
import { claimPaymentsToCheck, releasePaymentClaims } from './payments.repository.js';

export interface ReconcilerConfig {
  /** Ask the provider about payments pending at least this long (callbacks get lost). */
  reconcileAfterMs: number;
  /** Give up on a payment pending this long. */
  maxPendingMinutes: number;
  intervalMs: number;
  /** Status checks in flight at once (RECONCILE_CHECKS_IN_FLIGHT). */
  checksInFlight?: number;
  /** Payments claimed by one claim query. */
  batchSize?: number;
  /** Claims one sweep makes at most before it hands over to the next (see `start`). */
  batchesPerSweep?: number;
}

export interface ReconcilerDeps {
  db: Kysely<DB>;
  clock: Clock;
  provider: PaymentProvider;
  bookings: BookingsService;
  stateMachine: PaymentStateMachine;
  config: ReconcilerConfig;
  log: FastifyBaseLogger;
  metrics?: Metrics;
}

export interface SweepResult {
  expiredHolds: number;
  checked: number;
  expiredPayments: number;
  /** Payments whose status check or settlement failed this sweep (retried by a later one). */
  failed: number;
  /** The sweep stopped at its claim cap with payments still due: sweep again at once. */
  backlogged: boolean;
}

const HOLDS_PER_SWEEP = 500;
/** Payments claimed at once; a sweep claims batches until none is due (at most the cap). */
export const PAYMENTS_PER_BATCH = 200;
const BATCHES_PER_SWEEP = 25;
/**
 * Status checks in flight at once: each waits mostly on the provider (one HTTP GET per
 * payment at Campay), so several overlap well.
 */
export const CHECKS_IN_FLIGHT = 12;
/**
 * Of a process's pool of 10 connections, the most the reconciler's database work (claims,
 * settlements, what a lookup found, give-ups) uses at once; the provider's answers (status
 * checks, lookups by our id) are awaited outside this share, so requests keep 7. Before it,
 * with a database 200 ms away, requests waited 1.9 s on average for a connection; with it,
 * 0.3–1.6 s (decision 034, third amendment: the share shortens the waits, it cannot make a
 * process that far from its database fast).
 */
export const DATABASE_SHARE = 3;

/** The provider, asked by our payment id, has no transaction for it. */
const NOT_FOUND = 'NOT_FOUND_AT_PROVIDER';

/** What one check learned: settled, still pending at the provider, or nothing certain. */
type CheckResult =
  | { state: 'settled' }
  | { state: 'pending' }
  | { state: 'unknown'; reason: string };

/**
 * The background sweep: lapses stale holds, asks the provider about payments pending too
 * long (several at once, each state change in its own short transaction), and gives up on
 * payments pending past the limit — flagged for review when their outcome is unknown.
 * Several processes may sweep one database at once: rows are claimed with SKIP LOCKED and
 * marked checked in the claim's own short transaction, so no two processes check one
 * payment in the same round; the state machine makes a second settlement a no-op anyway.
 */
export class Reconciler {
  private readonly loop: PeriodicSweep<SweepResult>;
  /** Runs the sweep's database work, DATABASE_SHARE at a time. */
  private readonly inShare = pLimit(DATABASE_SHARE);
  private stopping = false;
  /** Claims handed back by stops (decision 028). */
  private handedBack = 0;

  constructor(private readonly deps: ReconcilerDeps) {
    this.loop = new PeriodicSweep(
      () => this.sweep(),
      deps.config.intervalMs,
      (err: unknown) => deps.log.error({ err }, 'reconciler sweep failed'),
      { runAgain: (result) => result.backlogged },
    );
  }

  /**
   * One pass: a pool of `checksInFlight` workers takes payments from a queue; when the
   * queue runs dry one of them claims the next batch. A slow provider answer holds up only
   * its own worker, not a whole batch. Failures are counted per payment and never end the
   * pass; only a failed claim (the database is away) does, after the work in flight.
   */
  async sweep(): Promise<SweepResult> {
    try {
      const result = await this.sweepOnce();
      this.deps.metrics?.reconcilerSweep(true);
      return result;
    } catch (err) {
      this.deps.metrics?.reconcilerSweep(false);
      throw err;
    }
  }

  private async sweepOnce(): Promise<SweepResult> {
    const { db, clock, config, bookings } = this.deps;
    const expiredHolds = await bookings.lapseStaleHolds(clock.now(), HOLDS_PER_SWEEP);
    const result: SweepResult = {
      expiredHolds,
      checked: 0,
      expiredPayments: 0,
      failed: 0,
      backlogged: false,
    };
    const batchSize = config.batchSize ?? PAYMENTS_PER_BATCH;
    const maxClaims = config.batchesPerSweep ?? BATCHES_PER_SWEEP;
    const seen = new Set<string>();
    const queue: PaymentRow[] = [];
    /** When each queued payment was claimed: a stop hands back those not yet checked. */
    const claimedAt = new Map<string, Date>();
    let claims = 0;
    let exhausted = false;
    let claimError: unknown = null;
    let claiming: Promise<void> | null = null;

    const claimNext = async () => {
      if (claims >= maxClaims || this.stopping) {
        // Payments may still be due: the loop starts the next sweep at once.
        result.backlogged = !this.stopping;
        exhausted = true;
        return;
      }
      claims += 1;
      try {
        const at = clock.now();
        const claimed = await this.inShare(() =>
          db
            .transaction()
            .execute((trx) => claimPaymentsToCheck(trx, at, config.reconcileAfterMs, batchSize)),
        );
        // With RECONCILE_AFTER_MS=0 a claim may return rows this sweep already checked.
        const fresh = claimed.filter((p) => !seen.has(p.id));
        for (const p of fresh) {
          seen.add(p.id);
          claimedAt.set(p.id, at);
        }
        queue.push(...fresh);
        if (claimed.length < batchSize || fresh.length === 0) exhausted = true;
      } catch (err) {
        claimError = err;
        exhausted = true;
      }
    };

    const worker = async () => {
      for (;;) {
        // Stopping: the check in hand is finished, the queued ones are handed back below.
        if (this.stopping) return;
        const payment = queue.shift();
        if (!payment) {
          if (exhausted) return;
          claiming ??= claimNext().finally(() => {
            claiming = null;
          });
          await claiming;
          continue;
        }
        // Counted once per payment, whether its check or its settlement failed (or both).
        let failed: boolean;
        try {
          failed = await this.reconcile(payment, result);
        } catch (err) {
          failed = true;
          this.deps.log.warn(
            { err, reqId: payment.request_id ?? undefined, paymentId: payment.id },
            'reconciling failed; will retry',
          );
        }
        if (failed) result.failed += 1;
      }
    };
    await Promise.all(Array.from({ length: config.checksInFlight ?? CHECKS_IN_FLIGHT }, worker));
    if (queue.length > 0) {
      const claims = queue.map((p) => ({
        id: p.id,
        // The row as claimed: read before the claim set last_checked_at.
        previous: p.last_checked_at,
        claimedAt: claimedAt.get(p.id) ?? clock.now(),
      }));
      queue.length = 0;
      this.handedBack += await releasePaymentClaims(db, claims);
    }
    if (claimError) throw claimError;
    return result;
  }

  /** Checks one payment and gives up on it once too old; true when its status check failed. */
  private async reconcile(payment: PaymentRow, result: SweepResult): Promise<boolean> {
    const { clock, config, stateMachine, log, metrics } = this.deps;
    // The id of the request that initiated the payment, on every line about it (decision 029).
    const reqId = payment.request_id ?? undefined;
    let check: CheckResult;
    let checkFailed = false;
    try {
      check = await this.check(payment, result);
    } catch (err) {
      checkFailed = true;
      log.warn({ err, reqId, paymentId: payment.id }, 'status check failed; will retry');
      check = { state: 'unknown', reason: 'PROVIDER_UNAVAILABLE' };
    }
    metrics?.reconcilerCheck(checkFailed ? 'failed' : check.state);
    log.debug(
      { reqId, paymentId: payment.id, check: check.state },
      'reconciler checked a pending payment',
    );
    if (check.state === 'settled') return checkFailed;
    const age = clock.now().getTime() - payment.created_at.getTime();
    // Asked by our payment id, the provider has no transaction, long after the payment
    // started: the collect never reached it (the process died, or its database failed, between
    // the hold and the collect). No prompt was sent, so none can be paid: fail it and free
    // the seat now, not at the pending limit. A success reported later is flagged for refund.
    const finalAfter = this.deps.provider.capabilities.notFoundIsFinalAfterMs;
    if (check.state === 'unknown' && check.reason === NOT_FOUND && finalAfter !== null) {
      if (age < finalAfter) return checkFailed;
      // Unless its reference was saved meanwhile (a collect that answered very late).
      const failed = await this.inShare(() =>
        stateMachine.failPending(
          payment.id,
          FAILURE_CODES.NOT_AT_PROVIDER,
          {
            source: 'status_check',
            outcome: 'not_at_provider',
            payload: { pending_since: payment.created_at.toISOString() },
          },
          undefined,
          { unlessReferenced: true },
        ),
      );
      if (failed) result.expiredPayments += 1;
      return checkFailed;
    }
    if (age < config.maxPendingMinutes * 60_000) return checkFailed;
    // The provider says it is still pending: it will fail there too; a late success is
    // recorded for refund. Otherwise nobody knows whether money was taken: an operator must.
    const gaveUp = await this.inShare(() =>
      check.state === 'pending'
        ? stateMachine.failPending(payment.id, FAILURE_CODES.EXPIRED, {
            source: 'expiry',
            outcome: 'expired',
            payload: { pending_since: payment.created_at.toISOString() },
          })
        : stateMachine.failPending(
            payment.id,
            FAILURE_CODES.OUTCOME_UNKNOWN,
            {
              source: 'expiry',
              outcome: 'needs_review',
              payload: { pending_since: payment.created_at.toISOString(), reason: check.reason },
            },
            check.reason,
          ),
    );
    if (gaveUp) result.expiredPayments += 1;
    return checkFailed;
  }

  /**
   * Asks the provider, by the reference we recorded or else by our payment id, outside the
   * database share (an HTTP call at Campay); then records what it learned inside the share.
   */
  private async check(payment: PaymentRow, result: SweepResult): Promise<CheckResult> {
    const { db, clock, provider, stateMachine } = this.deps;
    let event: ProviderEvent;
    let found: FoundTransaction | null = null;
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
      found = await findTransaction({ clock, provider }, payment);
      if (!found) return { state: 'unknown', reason: NOT_FOUND };
      event = found;
    }
    result.checked += 1;
    const learned = event;
    const lookedUp = found;
    const outcome = await this.inShare(async () => {
      if (lookedUp) await saveFoundTransaction({ db, provider }, payment, lookedUp);
      return stateMachine.applyEvent(learned, 'status_check', { ...learned }, payment.id);
    });
    return outcome === 'still_pending' ? { state: 'pending' } : { state: 'settled' };
  }

  /**
   * Sweeps every `intervalMs` (see PeriodicSweep), and again at once after a sweep that
   * stopped at its claim cap: a full backlog is worked through without waiting, while each
   * sweep still begins by lapsing stale holds.
   */
  start(): void {
    this.stopping = false;
    this.loop.start();
  }

  /**
   * Stops the loop; a sweep in flight finishes the checks it holds, claims no more and hands
   * back the payments it claimed and did not check yet (decision 028). Says how many.
   */
  async stop(): Promise<{ handedBack: number }> {
    this.stopping = true;
    const before = this.handedBack;
    await this.loop.stop();
    return { handedBack: this.handedBack - before };
  }
}
