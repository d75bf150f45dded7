import { createHash } from 'node:crypto';
import {
  CURRENCY,
  daysBetween,
  idSchema,
  isSlotInPast,
  PAYMENT_DESCRIPTION,
  type Payment,
  type PaymentInitiateInput,
  type PaymentStatusMessage,
  PLATFORM_FEE_XAF,
  zonedNow,
} from '@qless/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { PaymentsConfig } from '../../config.js';
import type { DB, Db, PaymentRow } from '../../db/schema.js';
import { timeToMinutes } from '../../db/time-columns.js';
import { AppError } from '../../errors.js';
import type {
  CallbackInput,
  CollectResult,
  PaymentProvider,
  ProviderEvent,
} from '../../providers/provider.js';
import { findActiveService } from '../services/services.repository.js';
import { generateTicketCode } from '../tickets/ticket-code.js';
import {
  findTicketByBooking,
  isTicketValid,
  type TicketSigner,
  toTicket,
} from '../tickets/tickets.service.js';
import {
  claimPaymentsToCheck,
  expireStaleHolds,
  findFreeSeat,
  findPaymentById,
  findPaymentByProviderReference,
  findPaymentByReference,
  lockPhone,
  lockSlot,
  notifyPaymentChanged,
  recordPaymentEvent,
} from './payments.repository.js';

export interface PaymentsServiceDeps {
  db: Kysely<DB>;
  clock: Clock;
  config: PaymentsConfig;
  provider: PaymentProvider;
  signer: TicketSigner;
  log: FastifyBaseLogger;
}

const FAILURE_STATUS: Record<Exclude<CollectResult, { ok: true }>['code'], number> = {
  INVALID_PHONE: 400,
  PAYMENT_DECLINED: 402,
  PROVIDER_UNAVAILABLE: 502,
};

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && e.constraint === constraint;
}

function fingerprint(input: PaymentInitiateInput): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        input.cus_name,
        input.cus_email.toLowerCase(),
        input.phone_number,
        input.service_id,
        input.slot_id,
        input.date,
      ]),
    )
    .digest('hex');
}

export type EventSource = 'callback' | 'status_check';

/**
 * Bookings and their payments. The state machine: a payment goes PENDING → SUCCESSFUL or
 * PENDING → FAILED exactly once; its booking goes held → confirmed, or held → cancelled /
 * expired. Money that arrives when no booking can answer for it is recorded for refund.
 */
export class PaymentsService {
  constructor(private readonly deps: PaymentsServiceDeps) {}

  get providerName(): string {
    return this.deps.provider.name;
  }

  toPayment(row: PaymentRow, holdExpiresAt: Date | null): Payment {
    return {
      payment_id: row.id,
      status: row.status,
      booking_id: row.booking_id,
      amount: row.amount,
      currency: row.currency,
      provider: row.provider,
      hold_expires_at: (holdExpiresAt ?? row.created_at).toISOString(),
      ussd_code: row.ussd_code,
      operator: row.operator,
    };
  }

  private async holdExpiry(db: Db, bookingId: string): Promise<Date | null> {
    const b = await db
      .selectFrom('bookings')
      .select('hold_expires_at')
      .where('id', '=', bookingId)
      .executeTakeFirst();
    return b?.hold_expires_at ?? null;
  }

  /** Returns the payment, and whether this call created it (false: idempotent replay). */
  async initiate(input: PaymentInitiateInput): Promise<{ payment: Payment; created: boolean }> {
    const { db, clock, config } = this.deps;
    if (input.amount !== PLATFORM_FEE_XAF) {
      throw new AppError(
        400,
        'AMOUNT_MISMATCH',
        `The platform fee is ${PLATFORM_FEE_XAF} ${CURRENCY}; the request said ${input.amount}.`,
      );
    }
    if (input.currency.toUpperCase() !== CURRENCY) {
      throw new AppError(400, 'CURRENCY_MISMATCH', `Payments are in ${CURRENCY}.`);
    }
    const print = fingerprint(input);
    const replay = await this.replay(input.reference, print);
    if (replay) return replay;

    const now = clock.now();
    const found = await findActiveService(db, input.service_id);
    if (!found) throw new AppError(404, 'SERVICE_NOT_FOUND', 'No such service.');
    const { service, organization } = found;
    const slot = await db
      .selectFrom('slots')
      .selectAll()
      .where('id', '=', input.slot_id)
      .executeTakeFirst();
    if (!slot || slot.retired_at !== null) {
      throw new AppError(
        404,
        'SLOT_NOT_FOUND',
        'This time slot no longer exists. Pick another one.',
      );
    }
    if (slot.service_id !== service.id) {
      throw new AppError(400, 'SLOT_NOT_IN_SERVICE', 'This time slot belongs to another service.');
    }
    const tz = organization.time_zone;
    if (isSlotInPast(input.date, timeToMinutes(slot.start_time), tz, now)) {
      throw new AppError(
        400,
        'SLOT_IN_PAST',
        'This time slot has already started. Pick a later one.',
      );
    }
    const today = zonedNow(tz, now).date;
    if (daysBetween(today, input.date) > config.horizonDays) {
      throw new AppError(
        400,
        'DATE_OUT_OF_HORIZON',
        `Bookings open ${config.horizonDays} days ahead at most.`,
      );
    }

    const holdExpiresAt = new Date(now.getTime() + config.holdMinutes * 60_000);
    let payment: PaymentRow;
    try {
      payment = await db.transaction().execute(async (trx) => {
        // Phone first, then slot: every writer takes these locks in this order.
        await lockPhone(trx, input.phone_number);
        await this.checkPhoneLimit(trx, input.phone_number, now);
        await lockSlot(trx, slot.id);
        await expireStaleHolds(trx, now, { slotId: slot.id, date: input.date });
        const seat = await findFreeSeat(trx, slot.id, input.date, service.capacity);
        if (seat === null) throw slotTaken();
        const booking = await trx
          .insertInto('bookings')
          .values({
            organization_id: organization.id,
            service_id: service.id,
            slot_id: slot.id,
            booking_date: input.date,
            seat,
            status: 'held',
            hold_expires_at: holdExpiresAt,
            cus_name: input.cus_name,
            cus_email: input.cus_email,
            phone_number: input.phone_number,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return trx
          .insertInto('payments')
          .values({
            booking_id: booking.id,
            reference: input.reference,
            request_fingerprint: print,
            provider: this.deps.provider.name,
            amount: PLATFORM_FEE_XAF,
            currency: CURRENCY,
            phone_number: input.phone_number,
            status: 'PENDING',
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    } catch (error) {
      const lostRace =
        isUniqueViolation(error, 'bookings_active_seat_uq') ||
        isUniqueViolation(error, 'payments_reference_key') ||
        (error instanceof AppError && error.code === 'SLOT_TAKEN');
      if (lostRace) {
        // The same request sent twice at once (double tap, retry): the twin won.
        const again = await this.replay(input.reference, print);
        if (again) return again;
        throw slotTaken();
      }
      throw error;
    }

    const result = await this.collect(payment);
    if (!result.ok) {
      await this.failPending(payment, result.providerCode ?? result.code, {
        source: 'callback',
        outcome: 'collect_refused',
        payload: { code: result.code, provider_code: result.providerCode },
      });
      throw new AppError(FAILURE_STATUS[result.code], result.code, result.message);
    }
    const updated = await db
      .updateTable('payments')
      .set({
        provider_reference: result.providerReference,
        ussd_code: result.ussdCode,
        operator: result.operator,
      })
      .where('id', '=', payment.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { payment: this.toPayment(updated, holdExpiresAt), created: true };
  }

  private async checkPhoneLimit(trx: Db, phone: string, now: Date): Promise<void> {
    const { perPhone, windowMinutes } = this.deps.config.rateLimit;
    const recent = await trx
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('phone_number', '=', phone)
      .where('created_at', '>', new Date(now.getTime() - windowMinutes * 60_000))
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= perPhone) {
      throw new AppError(
        429,
        'RATE_LIMITED',
        'Too many payment requests for this number. Please wait a few minutes and try again.',
      );
    }
  }

  private async replay(
    reference: string,
    print: string,
  ): Promise<{ payment: Payment; created: boolean } | null> {
    const existing = await findPaymentByReference(this.deps.db, reference);
    if (!existing) return null;
    if (existing.request_fingerprint !== print) {
      throw new AppError(
        409,
        'REFERENCE_CONFLICT',
        'This payment reference was already used for a different request.',
      );
    }
    const hold = await this.holdExpiry(this.deps.db, existing.booking_id);
    return { payment: this.toPayment(existing, hold), created: false };
  }

  private async collect(payment: PaymentRow): Promise<CollectResult> {
    try {
      return await this.deps.provider.collect({
        paymentId: payment.id,
        amount: payment.amount,
        currency: payment.currency,
        phone: payment.phone_number,
        description: PAYMENT_DESCRIPTION,
      });
    } catch (err) {
      this.deps.log.error({ err, paymentId: payment.id }, 'provider collect threw');
      return {
        ok: false,
        code: 'PROVIDER_UNAVAILABLE',
        message: 'Mobile money payments are unavailable right now. Please try again in a moment.',
        providerCode: 'EXCEPTION',
      };
    }
  }

  /**
   * Fails a payment that is still PENDING (provider refusal, or given up on) and releases
   * its hold. Returns false when it had already settled.
   */
  private async failPending(
    payment: PaymentRow,
    failureCode: string,
    record: { source: 'callback' | 'expiry'; outcome: string; payload: Record<string, unknown> },
  ): Promise<boolean> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const locked = await findPaymentById(trx, payment.id, true);
      if (locked?.status !== 'PENDING') return false;
      await this.settle(trx, locked, 'FAILED', failureCode, now);
      await recordPaymentEvent(trx, {
        paymentId: payment.id,
        provider: payment.provider,
        signatureValid: true,
        ...record,
      });
      return true;
    });
  }

  /** Moves a PENDING payment to a final status and its booking along with it. */
  private async settle(
    trx: Db,
    payment: PaymentRow,
    status: 'SUCCESSFUL' | 'FAILED',
    failureCode: string | null,
    now: Date,
    refund?: string,
  ): Promise<string> {
    await trx
      .updateTable('payments')
      .set({
        status,
        failure_code: status === 'FAILED' ? failureCode : null,
        settled_at: now,
        updated_at: now,
        ...(refund ? { needs_refund: true, refund_reason: refund } : {}),
      })
      .where('id', '=', payment.id)
      .execute();
    await notifyPaymentChanged(trx, payment.id);
    if (status === 'FAILED') {
      await trx
        .updateTable('bookings')
        .set({ status: 'cancelled', updated_at: now })
        .where('id', '=', payment.booking_id)
        .where('status', '=', 'held')
        .execute();
      return refund ? 'failed_refund_due' : 'failed';
    }
    return this.confirmBooking(trx, payment, now);
  }

  /**
   * Paid: the hold becomes a confirmed booking with a ticket. If the hold had already
   * lapsed, the slot is taken again when a seat is still free; otherwise the payment is
   * recorded for refund.
   */
  private async confirmBooking(trx: Db, payment: PaymentRow, now: Date): Promise<string> {
    const booking = await trx
      .selectFrom('bookings as b')
      .innerJoin('services as s', 's.id', 'b.service_id')
      .select(['b.id', 'b.status', 'b.slot_id', 'b.booking_date', 'b.seat', 's.capacity'])
      .where('b.id', '=', payment.booking_id)
      .forUpdate('b')
      .executeTakeFirstOrThrow();
    let seat = booking.seat;
    if (booking.status !== 'held') {
      await lockSlot(trx, booking.slot_id);
      const free = await findFreeSeat(trx, booking.slot_id, booking.booking_date, booking.capacity);
      if (free === null) {
        await trx
          .updateTable('payments')
          .set({ needs_refund: true, refund_reason: 'SLOT_TAKEN_AFTER_HOLD_LAPSED' })
          .where('id', '=', payment.id)
          .execute();
        this.deps.log.warn(
          { paymentId: payment.id },
          'paid after the hold lapsed; slot taken: refund due',
        );
        return 'refund_due';
      }
      seat = free;
    }
    let code = generateTicketCode();
    for (let i = 0; i < 5; i += 1) {
      const clash = await trx
        .selectFrom('bookings')
        .select('id')
        .where('ticket_code', '=', code)
        .executeTakeFirst();
      if (!clash) break;
      code = generateTicketCode();
    }
    await trx
      .updateTable('bookings')
      .set({ status: 'confirmed', seat, ticket_code: code, confirmed_at: now, updated_at: now })
      .where('id', '=', booking.id)
      .execute();
    return booking.status === 'held' ? 'confirmed' : 'confirmed_after_hold_lapsed';
  }

  /** Applies what a provider said about a payment. Idempotent; never moves a final status. */
  async applyEvent(
    event: ProviderEvent,
    source: EventSource,
    raw: Record<string, unknown>,
  ): Promise<string> {
    const { db, clock, provider } = this.deps;
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      let payment: PaymentRow | undefined;
      if (event.paymentId && idSchema.safeParse(event.paymentId).success) {
        payment = await findPaymentById(trx, event.paymentId, true);
      }
      if (!payment && event.providerReference) {
        payment = await findPaymentByProviderReference(trx, provider.name, event.providerReference);
      }
      const log = (outcome: string, paymentId: string | null) =>
        recordPaymentEvent(trx, {
          paymentId,
          provider: provider.name,
          source,
          signatureValid: true,
          outcome,
          payload: raw,
        }).then(() => outcome);
      if (!payment) return log('unknown_payment', null);
      if (
        payment.provider_reference &&
        event.providerReference &&
        payment.provider_reference !== event.providerReference
      ) {
        return log('reference_mismatch', payment.id);
      }
      if (payment.status !== 'PENDING') {
        if (event.status === 'SUCCESSFUL' && payment.status === 'FAILED' && !payment.needs_refund) {
          await trx
            .updateTable('payments')
            .set({ needs_refund: true, refund_reason: 'PAID_AFTER_FAILURE', updated_at: now })
            .where('id', '=', payment.id)
            .execute();
          this.deps.log.warn(
            { paymentId: payment.id },
            'success reported for a failed payment: refund due',
          );
          return log('refund_due', payment.id);
        }
        return log('duplicate', payment.id);
      }
      if (event.status === 'PENDING') {
        return source === 'callback' ? log('still_pending', payment.id) : 'still_pending';
      }
      if (event.status === 'FAILED') {
        return log(
          await this.settle(trx, payment, 'FAILED', event.code ?? 'DECLINED', now),
          payment.id,
        );
      }
      const amountWrong = event.amount !== null && event.amount !== payment.amount;
      const currencyWrong =
        event.currency !== null && event.currency.toUpperCase() !== payment.currency;
      if (amountWrong || currencyWrong) {
        const reason = `AMOUNT_MISMATCH: received ${event.amount ?? '?'} ${event.currency ?? '?'}`;
        await this.settle(trx, payment, 'FAILED', 'AMOUNT_MISMATCH', now, reason);
        return log('amount_mismatch', payment.id);
      }
      if (event.operatorReference) {
        await trx
          .updateTable('payments')
          .set({
            operator_reference: event.operatorReference,
            operator: event.operator ?? payment.operator,
          })
          .where('id', '=', payment.id)
          .execute();
      }
      return log(await this.settle(trx, payment, 'SUCCESSFUL', null, now), payment.id);
    });
  }

  /** A provider's HTTP callback, or the simulator's own: verify, then apply. */
  async handleCallback(input: CallbackInput): Promise<{ accepted: boolean; outcome: string }> {
    const { provider, db } = this.deps;
    const parsed = await provider.parseCallback(input);
    if (!parsed.ok) {
      await recordPaymentEvent(db, {
        paymentId: null,
        provider: provider.name,
        source: 'callback',
        signatureValid: parsed.reason !== 'INVALID_SIGNATURE',
        outcome:
          parsed.reason === 'INVALID_SIGNATURE' ? 'rejected_signature' : 'rejected_malformed',
        payload: parsed.raw,
      });
      return { accepted: false, outcome: parsed.reason };
    }
    let event = parsed.event;
    // The simulator signs the reference and status themselves. A provider's signature
    // proves the sender, not these fields: a final status is re-read from the provider,
    // for the transaction we recorded, before it is applied.
    if (provider.name !== 'simulator' && event.status !== 'PENDING') {
      const stored =
        event.paymentId && idSchema.safeParse(event.paymentId).success
          ? await findPaymentById(db, event.paymentId)
          : undefined;
      const reference = stored?.provider_reference ?? event.providerReference;
      let checked: ProviderEvent | null = null;
      if (reference) {
        try {
          checked = await provider.getStatus(reference);
        } catch (err) {
          this.deps.log.warn({ err }, 'status check after callback failed');
        }
      }
      if (!checked) {
        await recordPaymentEvent(db, {
          paymentId: stored?.id ?? null,
          provider: provider.name,
          source: 'callback',
          signatureValid: true,
          outcome: 'unverified',
          payload: parsed.raw,
        });
        // Not applied: the provider retries, or the reconciler asks it later.
        return { accepted: true, outcome: 'unverified' };
      }
      event = { ...checked, paymentId: stored?.id ?? checked.paymentId ?? event.paymentId };
    }
    return { accepted: true, outcome: await this.applyEvent(event, 'callback', parsed.raw) };
  }

  async statusMessage(paymentId: string): Promise<PaymentStatusMessage | null> {
    const { db, signer } = this.deps;
    const payment = await findPaymentById(db, paymentId);
    if (!payment) return null;
    let ticket: PaymentStatusMessage['ticket'] = null;
    if (payment.status === 'SUCCESSFUL') {
      const record = await findTicketByBooking(db, payment.booking_id);
      if (record?.ticket_code && isTicketValid(record.status)) {
        ticket = await toTicket(signer, record, { reveal: true });
      }
    }
    return {
      status: payment.status,
      booking_id: payment.booking_id,
      ticket,
      failure_code:
        payment.status === 'FAILED'
          ? payment.failure_code
          : payment.needs_refund
            ? 'REFUND_DUE'
            : null,
    };
  }

  /**
   * One reconciler pass: lapse stale holds, ask the provider about payments pending too
   * long (callbacks get lost), and give up on payments pending past the limit.
   * Safe to run in several processes at once: rows are claimed with SKIP LOCKED.
   */
  async sweep(): Promise<{ expiredHolds: number; checked: number; expiredPayments: number }> {
    const { db, clock, config, provider, log } = this.deps;
    const now = clock.now();
    const expiredHolds = await db
      .transaction()
      .execute((trx) => expireStaleHolds(trx, now, { limit: 500 }));
    const claimed = await db
      .transaction()
      .execute((trx) => claimPaymentsToCheck(trx, now, config.reconcileAfterMs, 50));
    let checked = 0;
    let expiredPayments = 0;
    const maxPendingMs = config.maxPendingMinutes * 60_000;
    for (const payment of claimed) {
      let stillPending = true;
      if (payment.provider_reference) {
        try {
          const event = await provider.getStatus(payment.provider_reference);
          checked += 1;
          const outcome = await this.applyEvent(
            { ...event, paymentId: payment.id },
            'status_check',
            {
              ...event,
            },
          );
          stillPending = outcome === 'still_pending';
        } catch (err) {
          log.warn({ err, paymentId: payment.id }, 'status check failed; will retry');
        }
      }
      if (stillPending && now.getTime() - payment.created_at.getTime() >= maxPendingMs) {
        const gaveUp = await this.failPending(payment, 'EXPIRED', {
          source: 'expiry',
          outcome: 'expired',
          payload: { pending_since: payment.created_at.toISOString() },
        });
        if (gaveUp) expiredPayments += 1;
      }
    }
    return { expiredHolds, checked, expiredPayments };
  }
}

function slotTaken(): AppError {
  return new AppError(
    409,
    'SLOT_TAKEN',
    'Someone has just booked this slot. Please pick another one.',
  );
}
