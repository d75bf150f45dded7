import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';
import type { PaymentProvider } from '../../providers/provider.js';
import type { BookingsService } from '../bookings/bookings.service.js';
import type { PaymentStateMachine } from './payment-state-machine.js';
import { claimPaymentsToCheck } from './payments.repository.js';

export interface ReconcilerConfig {
  /** Ask the provider about payments pending at least this long (callbacks get lost). */
  reconcileAfterMs: number;
  /** Give up on a payment pending this long. */
  maxPendingMinutes: number;
  intervalMs: number;
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
const PAYMENTS_PER_SWEEP = 50;

/**
 * The background sweep: lapses stale holds, asks the provider about payments pending too
 * long, and gives up on payments pending past the limit. Several processes may sweep one
 * database at once: rows are claimed with SKIP LOCKED.
 */
export class Reconciler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(private readonly deps: ReconcilerDeps) {}

  async sweep(): Promise<SweepResult> {
    const { db, clock, config, provider, bookings, stateMachine, log } = this.deps;
    const now = clock.now();
    const expiredHolds = await bookings.lapseStaleHolds(now, HOLDS_PER_SWEEP);
    const claimed = await db
      .transaction()
      .execute((trx) =>
        claimPaymentsToCheck(trx, now, config.reconcileAfterMs, PAYMENTS_PER_SWEEP),
      );
    let checked = 0;
    let expiredPayments = 0;
    const maxPendingMs = config.maxPendingMinutes * 60_000;
    for (const payment of claimed) {
      let stillPending = true;
      if (payment.provider_reference) {
        try {
          const event = await provider.getStatus(payment.provider_reference);
          checked += 1;
          const outcome = await stateMachine.applyEvent(
            { ...event, paymentId: payment.id },
            'status_check',
            { ...event },
          );
          stillPending = outcome === 'still_pending';
        } catch (err) {
          log.warn({ err, paymentId: payment.id }, 'status check failed; will retry');
        }
      }
      if (stillPending && now.getTime() - payment.created_at.getTime() >= maxPendingMs) {
        const gaveUp = await stateMachine.failPending(payment.id, 'EXPIRED', {
          source: 'expiry',
          outcome: 'expired',
          payload: { pending_since: payment.created_at.toISOString() },
        });
        if (gaveUp) expiredPayments += 1;
      }
    }
    return { expiredHolds, checked, expiredPayments };
  }

  /** Sweeps every `intervalMs`; a sweep still running when the next is due is not doubled. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .catch((err: unknown) => this.deps.log.error({ err }, 'reconciler sweep failed'))
        .finally(() => {
          this.running = null;
        });
    }, this.deps.config.intervalMs);
    this.timer.unref();
  }

  /** Stops the loop and waits for a sweep in flight. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
