import { performance } from 'node:perf_hooks';
import {
  type EventOutcome,
  type EventSource,
  idSchema,
  type ProviderName,
  type RecordedOutcome,
  type SettleOutcome,
} from '@qless/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { DB, Db, PaymentRow } from '../../db/schema.js';
import type { ProviderEvent } from '../../providers/provider.js';
import { currentRequestId, withRequestId } from '../../request-context.js';
import type { BookingsService } from '../bookings/bookings.module.js';
import type { Metrics } from '../metrics/metrics.module.js';
import { FAILURE_CODES } from './failure-codes.js';
import {
  findPaymentById,
  findPaymentByProviderReference,
  flagRefund,
  flagReview,
  markSettled,
  recordPaymentEvent,
} from './payments.repository.js';

export interface StateMachineDeps {
  db: Kysely<DB>;
  clock: Clock;
  bookings: BookingsService;
  provider: ProviderName;
  log: FastifyBaseLogger;
  metrics?: Metrics;
}

/** What an event did to a PENDING payment, told once its transaction committed. */
function finalStatusOf(outcome: EventOutcome): 'SUCCESSFUL' | 'FAILED' | null {
  if (outcome === 'confirmed' || outcome === 'confirmed_after_hold_lapsed') return 'SUCCESSFUL';
  if (outcome === 'refund_due') return 'SUCCESSFUL';
  if (outcome === 'failed' || outcome === 'amount_mismatch') return 'FAILED';
  return null;
}

/** What is recorded of a pending payment failed on our side. */
export interface FailRecord {
  source: EventSource;
  outcome: Extract<
    RecordedOutcome,
    | 'collect_refused'
    | 'expired'
    | 'needs_review'
    | 'not_at_provider'
    | 'superseded'
    | 'cancelled_by_customer'
  >;
  payload: Record<string, unknown>;
}

/**
 * The payment state machine: PENDING → SUCCESSFUL or PENDING → FAILED, exactly once, under a
 * row lock; the booking moves with it (held → confirmed, or held → cancelled). Money that
 * arrives when no booking can answer for it is recorded for refund. Every event is logged.
 */
export class PaymentStateMachine {
  constructor(private readonly deps: StateMachineDeps) {}

  /**
   * Applies what the provider said about a payment. Idempotent; a final status never moves.
   * `forPayment`: the event is the provider's answer about the transaction we recorded for
   * this payment, so it must name this payment as its external reference and be a collect.
   */
  async applyEvent(
    event: ProviderEvent,
    source: Exclude<EventSource, 'expiry'>,
    raw: Record<string, unknown>,
    forPayment?: string,
  ): Promise<EventOutcome> {
    const reported = performance.now();
    const seen: { payment?: PaymentRow } = {};
    // A payment's story carries the id of the request that initiated it: its settlement,
    // and the messages its confirmation queues, are logged with that id (decision 029).
    const outcome = await this.applyInTransaction(event, source, raw, forPayment, (payment) => {
      seen.payment = payment;
    });
    const target = seen.payment;
    const settled = target?.status === 'PENDING' ? finalStatusOf(outcome) : null;
    if (target && settled) this.told(target, settled, source, outcome, reported);
    return outcome;
  }

  /** Counts and logs a settlement that committed; a confirmation's time is observed. */
  private told(
    payment: PaymentRow,
    status: 'SUCCESSFUL' | 'FAILED',
    source: EventSource,
    outcome: string,
    reported?: number,
  ): void {
    const { metrics, log, clock } = this.deps;
    metrics?.paymentSettled(status, source);
    const confirmed = outcome === 'confirmed' || outcome === 'confirmed_after_hold_lapsed';
    if (
      confirmed &&
      reported !== undefined &&
      (source === 'callback' || source === 'status_check')
    ) {
      metrics?.bookingConfirmed(
        source,
        (performance.now() - reported) / 1000,
        (clock.now().getTime() - payment.created_at.getTime()) / 1000,
      );
    }
    log.info(
      { reqId: payment.request_id ?? undefined, paymentId: payment.id, status, source, outcome },
      'payment settled',
    );
  }

  private applyInTransaction(
    event: ProviderEvent,
    source: Exclude<EventSource, 'expiry'>,
    raw: Record<string, unknown>,
    forPayment: string | undefined,
    found: (payment: PaymentRow) => void,
  ): Promise<EventOutcome> {
    const { db, clock, provider } = this.deps;
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      let payment: PaymentRow | undefined;
      const id = forPayment ?? event.paymentId;
      if (id && idSchema.safeParse(id).success) {
        payment = await findPaymentById(trx, id, true);
      }
      if (!payment && !forPayment && event.providerReference) {
        payment = await findPaymentByProviderReference(trx, provider, event.providerReference);
      }
      const log = async <O extends EventOutcome>(outcome: O, paymentId: string | null) => {
        await recordPaymentEvent(trx, {
          paymentId,
          provider,
          source,
          signatureValid: true,
          outcome,
          payload: raw,
        });
        return outcome;
      };
      if (!payment) return log('unknown_payment', null);
      found(payment);
      const requestId = payment.request_id ?? currentRequestId();
      const within = <T>(work: () => Promise<T>) => withRequestId(requestId, work);
      if (
        payment.provider_reference &&
        event.providerReference &&
        payment.provider_reference !== event.providerReference
      ) {
        return log('reference_mismatch', payment.id);
      }
      const notOurs =
        forPayment !== undefined &&
        (event.paymentId !== payment.id || (event.endpoint ?? 'collect') !== 'collect');
      if (notOurs) return log('reference_mismatch', payment.id);
      if (payment.status !== 'PENDING') {
        if (event.status === 'SUCCESSFUL' && payment.status === 'FAILED' && !payment.needs_refund) {
          await flagRefund(trx, payment.id, 'PAID_AFTER_FAILURE', now);
          this.deps.log.warn(
            { paymentId: payment.id },
            'success reported for a failed payment: refund due',
          );
          return log('refund_due', payment.id);
        }
        return log('duplicate', payment.id);
      }
      if (event.status === 'PENDING') {
        // A status check that finds nothing new is not worth a row; a callback always is.
        return source === 'callback' ? log('still_pending', payment.id) : 'still_pending';
      }
      if (event.status === 'FAILED') {
        return log(
          await within(() =>
            this.settle(trx, payment, 'FAILED', event.code ?? FAILURE_CODES.DECLINED, now),
          ),
          payment.id,
        );
      }
      // A success that does not say what was paid is not a success for our amount.
      const amountWrong = event.amount !== payment.amount;
      const currencyWrong = event.currency?.toUpperCase() !== payment.currency;
      if (amountWrong || currencyWrong) {
        const reason = `AMOUNT_MISMATCH: received ${event.amount ?? '?'} ${event.currency ?? '?'}`;
        await this.settle(trx, payment, 'FAILED', FAILURE_CODES.AMOUNT_MISMATCH, now, reason);
        return log('amount_mismatch', payment.id);
      }
      const operator = event.operatorReference
        ? { reference: event.operatorReference, name: event.operator ?? payment.operator }
        : undefined;
      return log(
        await within(() => this.settle(trx, payment, 'SUCCESSFUL', null, now, undefined, operator)),
        payment.id,
      );
    });
  }

  /**
   * Fails a payment that is still PENDING (the provider refused the collect, or we gave up
   * waiting) and releases its hold. False when it had already settled. `reviewReason`: its
   * outcome is unknown (money may have been taken), so it is flagged for an operator too.
   * `unlessReferenced`: left alone (false) once the collect's reference is saved, checked
   * under the row lock (a payment failed because the provider had no transaction for it).
   */
  async failPending(
    paymentId: string,
    failureCode: string,
    record: FailRecord,
    reviewReason?: string,
    guard: { unlessReferenced?: boolean } = {},
  ): Promise<boolean> {
    return this.deps.db
      .transaction()
      .execute((trx) =>
        this.failPendingIn(trx, paymentId, failureCode, record, reviewReason, guard),
      );
  }

  /**
   * failPending inside the caller's transaction: what it does is undone if that transaction
   * is (a newer start replaces the number's payment only if it places its own hold).
   */
  async failPendingIn(
    trx: Db,
    paymentId: string,
    failureCode: string,
    record: FailRecord,
    reviewReason?: string,
    guard: { unlessReferenced?: boolean } = {},
  ): Promise<boolean> {
    const { clock, provider } = this.deps;
    const now = clock.now();
    const locked = await findPaymentById(trx, paymentId, true);
    if (locked?.status !== 'PENDING') return false;
    if (guard.unlessReferenced && locked.provider_reference !== null) return false;
    await this.settle(trx, locked, 'FAILED', failureCode, now);
    const reqId = locked.request_id ?? undefined;
    if (reviewReason) {
      await flagReview(trx, paymentId, reviewReason, now);
      this.deps.log.warn(
        { reqId, paymentId, reviewReason },
        'payment outcome unknown: needs review',
      );
    }
    await recordPaymentEvent(trx, { paymentId, provider, signatureValid: true, ...record });
    // Told before the caller commits: a rollback after this point is rare (and harmless here).
    this.told(locked, 'FAILED', record.source, record.outcome);
    return true;
  }

  /** Moves a PENDING payment to a final status and its booking along with it. */
  private async settle(
    trx: Db,
    payment: PaymentRow,
    status: 'SUCCESSFUL' | 'FAILED',
    failureCode: string | null,
    now: Date,
    refundReason?: string,
    operator?: { reference: string; name: string | null },
  ): Promise<SettleOutcome> {
    await markSettled(trx, payment.id, { status, failureCode, refundReason, operator }, now);
    if (status === 'FAILED') {
      await this.deps.bookings.cancelHold(trx, payment.booking_id, now);
      return refundReason ? 'failed_refund_due' : 'failed';
    }
    const confirmation = await this.deps.bookings.confirm(trx, payment.booking_id, now);
    if (confirmation === 'cancelled') {
      await flagRefund(trx, payment.id, 'BOOKING_CANCELLED', now);
      return 'refund_due';
    }
    if (confirmation !== 'no_seat') return confirmation;
    await flagRefund(trx, payment.id, 'SLOT_TAKEN_AFTER_HOLD_LAPSED', now);
    this.deps.log.warn(
      { paymentId: payment.id },
      'paid after the hold lapsed; slot taken: refund due',
    );
    return 'refund_due';
  }
}
